// SPDX-License-Identifier: MIT
#include "rev20260728requestvalidator.h"

#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

bool Rev20260728RequestValidator::isRev20260728(const JsonRpcMessage &m) const
{
    if (m_era == DemoEra::Initialize || !m.isRequest())
        return false;
    if (m_era == DemoEra::Rev20260728)
        return true;
    if (m.method() == "server/discover"_L1 || m.method() == "subscriptions/listen"_L1)
        return true;
    const QJsonObject meta = m.params().value("_meta"_L1).toObject();
    return meta.contains(DemoProtocol::ProtocolVersionKey) ||
           meta.contains(DemoProtocol::ClientCapabilitiesKey) ||
           meta.contains(DemoProtocol::ClientInfoKey);
}

int Rev20260728RequestValidator::logLevelRank(const QString &level)
{
    static const QStringList order = {u"debug"_s, u"info"_s,     u"notice"_s, u"warning"_s,
                                      u"error"_s, u"critical"_s, u"alert"_s,  u"emergency"_s};
    return int(order.indexOf(level));
}

Rev20260728RequestValidator::Verdict
Rev20260728RequestValidator::validate(const JsonRpcMessage &m) const
{
    Verdict v;
    const QJsonObject meta = m.params().value("_meta"_L1).toObject();
    const QJsonValue version = meta.value(DemoProtocol::ProtocolVersionKey);
    if (!version.isString()) {
        v.code = JsonRpcCode::InvalidParams;
        v.message = u"Invalid params: _meta must carry %1 (a string)"_s.arg(
            DemoProtocol::ProtocolVersionKey);
        return v;
    }
    if (!DemoProtocol::rev20260728Versions(m_era).contains(version.toString())) {
        v.code = DemoProtocol::UnsupportedProtocolVersion;
        v.message = u"Unsupported protocol version: %1 (this server speaks %2)"_s.arg(
            version.toString(), DemoProtocol::supportedVersions(m_era).join(u", "_s));
        v.data = QJsonObject{
            {"supported"_L1, QJsonArray::fromStringList(DemoProtocol::supportedVersions(m_era))},
            {"requested"_L1, version}};
        return v;
    }
    const QJsonValue capabilities = meta.value(DemoProtocol::ClientCapabilitiesKey);
    if (!capabilities.isObject()) {
        v.code = JsonRpcCode::InvalidParams;
        v.message = u"Invalid params: _meta must carry %1 (an object)"_s.arg(
            DemoProtocol::ClientCapabilitiesKey);
        return v;
    }
    const QJsonValue level = meta.value(DemoProtocol::LogLevelKey);
    if (!level.isUndefined() && logLevelRank(level.toString()) < 0) {
        v.code = JsonRpcCode::InvalidParams;
        v.message = u"Invalid params: %1 is not a log level"_s.arg(DemoProtocol::LogLevelKey);
        return v;
    }
    v.request = Rev20260728Request{version.toString(), capabilities.toObject(), level.toString()};
    return v;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "session/eraprobe.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/mcp.h"
#include "protocol/rev20260728.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

// The newest revision both sides speak: `revisions` is in Sonde's order of preference.
static QString chooseRevision(const QStringList &offered, const QStringList &revisions)
{
    for (const QString &v : revisions)
        if (offered.contains(v))
            return v;
    return {};
}

static bool offersLegacy(const QStringList &offered)
{
    for (const QString &v : offered)
        if (Mcp::isSupportedProtocolVersion(v))
            return true;
    return false;
}

static QString howItFailed(const Error &error)
{
    if (error.kind() == Error::Kind::Timeout)
        return u"server/discover got no answer in time"_s;
    if (const std::optional<int> status = error.httpStatus())
        return u"server/discover answered HTTP %1"_s.arg(*status);
    if (const std::optional<int> code = error.jsonRpcCode())
        return u"server/discover answered error %1 (%2)"_s.arg(*code).arg(error.message());
    return u"server/discover failed (%1)"_s.arg(error.message());
}

EraProbe::Decision EraProbe::decide(ServerConfig::Era setting, const JsonRpcMessage &response,
                                    const Error &error, const Error &initializeRefusal,
                                    const QStringList &revisions)
{
    Decision d;
    const bool refused = initializeRefusal.isError();
    const bool mayFallBack = setting != ServerConfig::Era::Rev20260728 && !refused;
    auto fallBack = [&](const QString &why) {
        if (refused) {
            d.next = Decision::Next::Fail;
            d.reason = why;
            Error e = Error::protocol(
                u"the server refused the initialize handshake (%1), and %2: it speaks neither 2025-11-25 nor 2026-07-28 as Sonde asked"_s
                    .arg(initializeRefusal.message(), why));
            e.setCause(initializeRefusal);
            if (error.isError())
                e.addChild(error);
            d.error = e;
        } else if (mayFallBack) {
            d.next = Decision::Next::Initialize;
            d.reason = why + u", so the initialize handshake (2025-11-25) is used"_s;
        } else {
            d.next = Decision::Next::Fail;
            d.reason = why;
            Error e = Error::protocol(
                u"%1; the server does not speak 2026-07-28 (era is set to 2026-07-28; use auto or initialize for a 2025-11-25 server)"_s
                    .arg(why));
            if (error.isError())
                e.setCause(error);
            d.error = e;
        }
        return d;
    };
    if (error.isError()) {
        const QJsonObject rpc = Rev20260728::jsonRpcErrorOf(error);
        const int code = rpc.value("code"_L1).toInt();
        if (!rpc.isEmpty() && code == Rev20260728::UnsupportedProtocolVersion) {
            d.offered = Rev20260728::offeredVersions(error);
            if (const QString v = chooseRevision(d.offered, revisions); !v.isEmpty()) {
                d.next = Decision::Next::Revision;
                d.version = v;
                d.reason = u"server/discover refused 2026-07-28 but offered %1"_s.arg(v);
                if (refused)
                    d.reason.prepend(u"initialize was refused; "_s);
                return d;
            }
            if (mayFallBack && offersLegacy(d.offered)) {
                d.next = Decision::Next::Initialize;
                d.reason = u"the server offers only %1, so the initialize handshake is used"_s.arg(
                    d.offered.join(u", "_s));
                return d;
            }
            d.next = Decision::Next::Fail;
            d.reason = u"no protocol version in common"_s;
            Error e = Error::protocol(Rev20260728::describeUnsupportedVersion(error));
            e.setJsonRpcCode(code).setData(rpc.value("data"_L1));
            d.error = e;
            return d;
        }
        if (!rpc.isEmpty() && Rev20260728::isErrorCode(code)) {
            // A modern server that refused the probe itself (a header or a capability):
            // falling back would only hide what it said.
            d.next = Decision::Next::Fail;
            d.reason = u"server/discover was refused with a 2026-07-28 error"_s;
            Error e = Error::protocol(u"server/discover was refused: %1 (error %2)"_s
                                          .arg(rpc.value("message"_L1).toString())
                                          .arg(code));
            e.setCause(error);
            d.error = e;
            return d;
        }
        return fallBack(howItFailed(error));
    }
    const QJsonObject result = response.result().toObject();
    QStringList offered;
    for (const QJsonValue &v : result.value("supportedVersions"_L1).toArray())
        offered.append(v.toString());
    d.offered = offered;
    d.discover = result;
    if (const QString v = chooseRevision(offered, revisions); !v.isEmpty()) {
        d.next = Decision::Next::Revision;
        d.version = v;
        d.reason = u"server/discover offered %1"_s.arg(offered.join(u", "_s));
        if (refused)
            d.reason =
                u"auto over stdio: initialize was refused (%1), and server/discover offered %2"_s
                    .arg(initializeRefusal.message(), offered.join(u", "_s));
        return d;
    }
    if (offered.isEmpty())
        return fallBack(u"server/discover answered without supportedVersions"_s);
    return fallBack(u"server/discover offered only %1"_s.arg(offered.join(u", "_s)));
}

} // namespace Sonde

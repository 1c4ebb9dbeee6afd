// SPDX-License-Identifier: MIT
#include "protocol/rev20260728.h"

#include "protocol/mcp.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde::Rev20260728 {

QStringList supportedProtocolVersions()
{
    return {QString::fromLatin1(ProtocolVersion)};
}

bool isProtocolVersion(const QString &version)
{
    return supportedProtocolVersions().contains(version);
}

bool isErrorCode(int code)
{
    return code == HeaderMismatch || code == MissingRequiredClientCapability ||
           code == UnsupportedProtocolVersion;
}

QJsonObject withRequestMeta(QJsonObject params, const RequestContext &context)
{
    QJsonObject meta = params.value("_meta"_L1).toObject();
    meta.insert(QLatin1StringView(MetaProtocolVersion), context.protocolVersion);
    meta.insert(QLatin1StringView(MetaClientCapabilities), context.clientCapabilities);
    if (!context.clientInfo.isEmpty())
        meta.insert(QLatin1StringView(MetaClientInfo), context.clientInfo);
    if (!context.logLevel.isEmpty())
        meta.insert(QLatin1StringView(MetaLogLevel), context.logLevel);
    params.insert("_meta"_L1, meta);
    return params;
}

QString resultType(const QJsonObject &result)
{
    const QJsonValue t = result.value("resultType"_L1);
    return t.isUndefined() ? u"complete"_s : t.toString(u"(not a string)"_s);
}

bool isKnownResultType(const QString &type)
{
    // "task" belongs to the tasks extension, which Sonde declares (docs/protocol.md).
    return type == "complete"_L1 || type == "input_required"_L1 || type == "task"_L1;
}

QJsonObject jsonRpcErrorOf(const Error &error)
{
    if (!error.jsonRpcCode())
        return {};
    const QJsonObject data = error.data().toObject();
    // An HTTP error keeps the whole body ({"jsonrpc", "id", "error": {...}}).
    if (error.httpStatus() && data.value("error"_L1).isObject())
        return data.value("error"_L1).toObject();
    QJsonObject e{{"code"_L1, *error.jsonRpcCode()}, {"message"_L1, error.message()}};
    if (!error.data().isUndefined())
        e.insert("data"_L1, error.data());
    return e;
}

QStringList offeredVersions(const Error &error)
{
    QStringList versions;
    const QJsonArray supported =
        jsonRpcErrorOf(error).value("data"_L1).toObject().value("supported"_L1).toArray();
    for (const QJsonValue &v : supported)
        if (v.isString())
            versions.append(v.toString());
    return versions;
}

QString describeUnsupportedVersion(const Error &error)
{
    const QStringList offered = offeredVersions(error);
    QStringList ours = supportedProtocolVersions();
    ours.append(Mcp::supportedProtocolVersions());
    return u"the server does not support the protocol version Sonde asked for; it offers %1, and Sonde speaks %2"_s
        .arg(offered.isEmpty() ? u"no version it names"_s : offered.join(u", "_s),
             ours.join(u", "_s));
}

Error explain(const Error &error)
{
    const QJsonObject rpc = jsonRpcErrorOf(error);
    if (rpc.isEmpty())
        return error;
    const int code = rpc.value("code"_L1).toInt();
    QString text;
    if (code == UnsupportedProtocolVersion)
        text = describeUnsupportedVersion(error);
    else if (code == HeaderMismatch)
        text =
            u"header mismatch (error -32020): the server says the request's headers do not match its body: %1"_s
                .arg(rpc.value("message"_L1).toString());
    else if (code == MissingRequiredClientCapability)
        text = u"missing client capability (error -32021): %1"_s.arg(
            rpc.value("message"_L1).toString());
    else
        return error;
    Error e = Error::remote(code, text, rpc.value("data"_L1));
    e.setCause(error);
    if (error.httpStatus())
        e.setHttpStatus(*error.httpStatus());
    return e;
}

} // namespace Sonde::Rev20260728

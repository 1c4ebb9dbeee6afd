// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Sonde::Rev20260728 {

// The sessionless revision (docs/protocol.md): no initialize; every request carries its
// version and the client's capabilities in _meta, and results say what kind they are.
inline constexpr auto ProtocolVersion = "2026-07-28";
QStringList supportedProtocolVersions();
bool isProtocolVersion(const QString &version);

// The errors this revision defines (basic/index.mdx, "Error Codes"). Recognising one is what
// tells a modern server from a legacy one that refused the probe (basic/versioning.mdx).
inline constexpr int HeaderMismatch = -32020;
inline constexpr int MissingRequiredClientCapability = -32021;
inline constexpr int UnsupportedProtocolVersion = -32022;
bool isErrorCode(int code);

inline constexpr auto MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr auto MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr auto MetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr auto MetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr auto MetaServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr auto MetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";

// What every modern request says about the client.
struct RequestContext
{
    QString protocolVersion = QString::fromLatin1(ProtocolVersion);
    QJsonObject clientCapabilities;
    QJsonObject clientInfo;
    QString logLevel; // empty: the server sends no notifications/message for the request
};

// `params` with the context merged into its _meta (what the caller put there stays).
QJsonObject withRequestMeta(QJsonObject params, const RequestContext &context);

// "complete" when absent (an earlier server's result); otherwise the field as sent.
QString resultType(const QJsonObject &result);
// The result types a client of this revision understands; any other is invalid.
bool isKnownResultType(const QString &type);

// The JSON-RPC error object a failure carried, whether it came as a response frame
// (Error::remote) or in the body of an HTTP 400 (HttpExchange::httpError); empty if none.
QJsonObject jsonRpcErrorOf(const Error &error);
// The versions an UnsupportedProtocolVersion error offers (its data.supported).
QStringList offeredVersions(const Error &error);
// A refusal of a version in words that name what the server offers and what Sonde speaks.
QString describeUnsupportedVersion(const Error &error);
// An error this revision defines, said in words (its code named, what it means for the
// request); any other error as it came. Whichever era the session is in: a server may answer
// with one before the era is known.
Error explain(const Error &error);

} // namespace Sonde::Rev20260728

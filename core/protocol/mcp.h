// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Sonde::Mcp {

// The version Sonde offers in initialize, and every version it accepts in the answer.
inline constexpr auto LatestProtocolVersion = "2025-11-25";
QStringList supportedProtocolVersions();
bool isSupportedProtocolVersion(const QString &version);

// The requests that open a connection and describe the client (initialize, and the
// 2026-07-28 server/discover): not a user's call, and a protocol error inside a live session.
bool isHandshake(const QString &method);

// Methods whose list answers are paginated with nextCursor, and the key holding the items.
QString listKeyFor(const QString &method);

// The answer shape of a tools/call result (docs/recovery.md §6):
// {"result": joined text} (+ structuredContent when it is not a verbatim copy of a text
// block, + _meta), or {"error": joined text} when isError is true. Non-text blocks (images,
// audio, links, embedded resources) are kept under "content" so nothing is lost.
QJsonObject toolAnswer(const QJsonObject &callResult);

// Whether structuredContent satisfies a tool's outputSchema, for a visible valid/invalid
// verdict; `why` gets the first violation (JsonSchemaValidator::Violation::text()).
bool validateAgainstSchema(const QJsonValue &value, const QJsonObject &schema, QString *why);

// Fills a form-mode elicitation answer: the schema's defaults, overridden by `given`.
QJsonObject elicitationDefaults(const QJsonObject &requestedSchema, const QJsonObject &given);

} // namespace Sonde::Mcp

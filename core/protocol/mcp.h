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

// Methods whose list answers are paginated with nextCursor, and the key holding the items.
QString listKeyFor(const QString &method);

// The answer shape of RECOVERY.md §5 for a tools/call result:
// {"result": joined text} (+ structuredContent when it is not a verbatim copy of a text
// block, + _meta), or {"error": joined text} when isError is true. Non-text blocks (images,
// audio, links, embedded resources) are kept under "content" so nothing is lost.
QJsonObject toolAnswer(const QJsonObject &callResult);

// Checks a value against the subset of JSON Schema that tool schemas use (type, required,
// properties, items, enum), recursively; `why` names the first path that fails. Used to give
// structuredContent a visible valid/invalid verdict against the tool's outputSchema.
bool validateAgainstSchema(const QJsonValue &value, const QJsonObject &schema, QString *why,
                           const QString &path = QStringLiteral("$"));

// Fills a form-mode elicitation answer: the schema's defaults, overridden by `given`.
QJsonObject elicitationDefaults(const QJsonObject &requestedSchema, const QJsonObject &given);

} // namespace Sonde::Mcp

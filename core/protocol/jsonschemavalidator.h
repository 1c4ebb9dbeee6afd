// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace Sonde {

// Checks a JSON value against a JSON Schema (2020-12, the dialect MCP names) in the subset
// that tool inputs, outputSchemas and elicitations use: type (a name or a list; "integer" is
// a whole number), enum, required, properties, items, anyOf, oneOf, allOf, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum. Other keywords, and type names it does not know, are
// accepted: the server validates again, and a false alarm would block a valid call. For the
// same reason oneOf passes when any alternative does (overlapping alternatives are common in
// generated schemas, and telling them apart needs keywords this subset leaves out).
// The one validator of the program: the form widget checks its input with it, the tools
// panel a result's structuredContent against the tool's outputSchema. Pure; any thread.
class JsonSchemaValidator
{
public:
    struct Violation
    {
        // A JSON Pointer (RFC 6901) into the value: "" for the value itself,
        // "/address/city", "/tags/1".
        QString path;
        // What is wrong, without the path: "must be a string", "is required".
        QString message;

        // The path and the message as one sentence: "\"address/city\" is required",
        // "The value must be an object".
        QString text() const;
        bool operator==(const Violation &other) const
        {
            return path == other.path && message == other.message;
        }
    };

    // Every violation, in the order the keywords are checked (anyOf/oneOf, allOf, enum, type,
    // bounds, required, properties, items), depth first; empty when the value is valid. A
    // failed anyOf reports the violations of its first alternative.
    static QList<Violation> validate(const QJsonValue &value, const QJsonObject &schema);

    // `pointer` with one more reference token, escaped as RFC 6901 says ("~" as "~0", "/" as
    // "~1").
    static QString appendToPointer(const QString &pointer, const QString &key);
    // A pointer as the messages quote it: "\"address/city\"", or "The value" for "".
    static QString quotedPath(const QString &pointer);
    // A type name as a message says it: "a string", "an integer", "true or false".
    static QString describeType(const QString &type);
    // A value as compact JSON text; also for scalars, which QJsonDocument cannot hold.
    static QString jsonText(const QJsonValue &value);
    // The values of an enum as a message lists them: "\"a\", \"b\", 3".
    static QString enumList(const QJsonArray &options);
    // A number with no fraction that a double holds exactly (JSON Schema's "integer").
    static bool isIntegral(const QJsonValue &value);
};

} // namespace Sonde

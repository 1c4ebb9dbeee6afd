// SPDX-License-Identifier: MIT
#include "protocol/mcp.h"

#include "protocol/jsonschemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde::Mcp {

QStringList supportedProtocolVersions()
{
    return {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
}

bool isSupportedProtocolVersion(const QString &version)
{
    return supportedProtocolVersions().contains(version);
}

bool isHandshake(const QString &method)
{
    return method == "initialize"_L1 || method == "server/discover"_L1;
}

QString listKeyFor(const QString &method)
{
    static const struct
    {
        QLatin1String method;
        QLatin1String key;
    } lists[] = {
        {"tools/list"_L1, "tools"_L1},
        {"resources/list"_L1, "resources"_L1},
        {"resources/templates/list"_L1, "resourceTemplates"_L1},
        {"prompts/list"_L1, "prompts"_L1},
    };
    for (const auto &l : lists) {
        if (method == l.method)
            return l.key;
    }
    return {};
}

QJsonObject toolAnswer(const QJsonObject &callResult)
{
    const QJsonArray content = callResult.value("content"_L1).toArray();
    // The text blocks are kept as JSON values: with one block (the usual case) its value is
    // inserted as it is, never widened to a QString; a 50 MB text otherwise costs four
    // UTF-16 copies of 100 MB on the way to the answer.
    QList<QJsonValue> texts;
    QJsonArray other;
    for (const QJsonValue &block : content) {
        const QJsonObject b = block.toObject();
        if (b.value("type"_L1).toString() == "text"_L1)
            texts.append(b.value("text"_L1));
        else
            other.append(b);
    }
    auto joined = [&texts]() -> QJsonValue {
        if (texts.size() == 1 && texts.first().isString())
            return texts.first();
        QStringList parts;
        for (const QJsonValue &t : std::as_const(texts))
            parts.append(t.toString());
        return parts.join(u'\n');
    };
    QJsonObject answer;
    if (callResult.value("isError"_L1).toBool()) {
        const QJsonValue message = joined();
        answer.insert("error"_L1, message.toString().isEmpty()
                                      ? QJsonValue(u"MCP tool returned an error"_s)
                                      : message);
    } else {
        answer.insert("result"_L1, joined());
        const QJsonValue structured = callResult.value("structuredContent"_L1);
        if (structured.isObject()) {
            const QByteArray compact =
                QJsonDocument(structured.toObject()).toJson(QJsonDocument::Compact);
            bool verbatim = false;
            for (const QJsonValue &v : std::as_const(texts)) {
                // A text far longer than the object cannot be it (UTF-8 is at most 3 bytes
                // per character; whitespace aside): no need to parse megabytes to find out.
                const QString t = v.toString();
                if (t.size() > 64 * compact.size() + 4096)
                    continue;
                const QJsonDocument d = QJsonDocument::fromJson(t.toUtf8());
                if (d.isObject() && d.toJson(QJsonDocument::Compact) == compact)
                    verbatim = true;
            }
            if (!verbatim)
                answer.insert("structuredContent"_L1, structured);
        }
    }
    if (!other.isEmpty())
        answer.insert("content"_L1, other);
    if (callResult.contains("_meta"_L1))
        answer.insert("_meta"_L1, callResult.value("_meta"_L1));
    return answer;
}

bool validateAgainstSchema(const QJsonValue &value, const QJsonObject &schema, QString *why)
{
    const QList<JsonSchemaValidator::Violation> violations =
        JsonSchemaValidator::validate(value, schema);
    if (why && !violations.isEmpty())
        *why = violations.first().text();
    return violations.isEmpty();
}

QJsonObject elicitationDefaults(const QJsonObject &requestedSchema, const QJsonObject &given)
{
    QJsonObject out;
    const QJsonObject props = requestedSchema.value("properties"_L1).toObject();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QJsonObject prop = it.value().toObject();
        if (prop.contains("default"_L1))
            out.insert(it.key(), prop.value("default"_L1));
    }
    for (auto it = given.begin(); it != given.end(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

} // namespace Sonde::Mcp

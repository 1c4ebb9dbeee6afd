// SPDX-License-Identifier: MIT
#include "protocol/mcp.h"

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

QString listKeyFor(const QString &method)
{
    if (method == "tools/list"_L1)
        return u"tools"_s;
    if (method == "resources/list"_L1)
        return u"resources"_s;
    if (method == "resources/templates/list"_L1)
        return u"resourceTemplates"_s;
    if (method == "prompts/list"_L1)
        return u"prompts"_s;
    return {};
}

QJsonObject toolAnswer(const QJsonObject &callResult)
{
    const QJsonArray content = callResult.value("content"_L1).toArray();
    QStringList texts;
    QJsonArray other;
    for (const QJsonValue &block : content) {
        const QJsonObject b = block.toObject();
        if (b.value("type"_L1).toString() == "text"_L1)
            texts.append(b.value("text"_L1).toString());
        else
            other.append(b);
    }
    const QString joined = texts.join(u'\n');
    QJsonObject answer;
    if (callResult.value("isError"_L1).toBool()) {
        answer.insert("error"_L1, joined.isEmpty() ? u"MCP tool returned an error"_s : joined);
    } else {
        answer.insert("result"_L1, joined);
        const QJsonValue structured = callResult.value("structuredContent"_L1);
        if (structured.isObject()) {
            const QByteArray compact = QJsonDocument(structured.toObject()).toJson(QJsonDocument::Compact);
            bool verbatim = false;
            for (const QString &t : std::as_const(texts)) {
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

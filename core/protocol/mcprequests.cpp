// SPDX-License-Identifier: MIT
#include "protocol/mcprequests.h"

#include "protocol/mcp.h"

using namespace Qt::StringLiterals;

namespace Sonde::McpRequests {

namespace {
QJsonObject complete(const QJsonObject &ref, const QString &argument, const QString &value,
                     const QJsonObject &context)
{
    QJsonObject params{{"ref"_L1, ref},
                       {"argument"_L1, QJsonObject{{"name"_L1, argument}, {"value"_L1, value}}}};
    if (!context.isEmpty())
        params.insert("context"_L1, QJsonObject{{"arguments"_L1, context}});
    return params;
}
} // namespace

QJsonObject toolCall(const QString &tool, const QJsonObject &arguments)
{
    return {{"name"_L1, tool}, {"arguments"_L1, arguments}};
}

QJsonObject resourceUri(const QString &uri)
{
    return {{"uri"_L1, uri}};
}

QString subscribeMethod(bool subscribe)
{
    return subscribe ? u"resources/subscribe"_s : u"resources/unsubscribe"_s;
}

QJsonObject promptGet(const QString &prompt, const QJsonObject &arguments)
{
    return {{"name"_L1, prompt}, {"arguments"_L1, arguments}};
}

QJsonObject setLogLevel(const QString &level)
{
    return {{"level"_L1, level}};
}

QString progressToken(quint64 ticket)
{
    return u"sonde-%1"_s.arg(ticket);
}

QJsonObject completeResourceArgument(const QString &uriTemplate, const QString &argument,
                                     const QString &value, const QJsonObject &context)
{
    return complete({{"type"_L1, "ref/resource"_L1}, {"uri"_L1, uriTemplate}}, argument, value,
                    context);
}

QJsonObject completePromptArgument(const QString &prompt, const QString &argument,
                                   const QString &value, const QJsonObject &context)
{
    return complete({{"type"_L1, "ref/prompt"_L1}, {"name"_L1, prompt}}, argument, value, context);
}

QStringList completionValues(const QJsonObject &completeResult)
{
    QStringList values;
    for (const QJsonValue &v :
         completeResult.value("completion"_L1).toObject().value("values"_L1).toArray())
        values.append(v.toString());
    return values;
}

QStringList listMethods(const QJsonObject &serverCapabilities)
{
    QStringList methods;
    if (serverCapabilities.contains("tools"_L1))
        methods << u"tools/list"_s;
    if (serverCapabilities.contains("resources"_L1))
        methods << u"resources/list"_s << u"resources/templates/list"_s;
    if (serverCapabilities.contains("prompts"_L1))
        methods << u"prompts/list"_s;
    return methods;
}

QJsonArray listItems(const QString &method, const QJsonObject &listResult)
{
    return listResult.value(Mcp::listKeyFor(method)).toArray();
}

} // namespace Sonde::McpRequests

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// The params of the MCP requests a front end sends, and the parts of their answers it reads,
// as pure functions: the window says what it wants (a tool and its arguments, a template's
// argument to complete) and never spells the wire shape itself.
namespace Sonde::McpRequests {

QJsonObject toolCall(const QString &tool, const QJsonObject &arguments);
// resources/read, resources/subscribe and resources/unsubscribe take the same params.
QJsonObject resourceUri(const QString &uri);
QString subscribeMethod(bool subscribe);
QJsonObject promptGet(const QString &prompt, const QJsonObject &arguments);
QJsonObject setLogLevel(const QString &level);
// The progressToken Sonde puts in a request's _meta, by the caller's ticket: progress
// notifications carrying it belong to that request.
QString progressToken(quint64 ticket);

// completion/complete for a resource template's variable or a prompt's argument; `context`
// holds the other arguments already filled in, and is left out when there are none.
QJsonObject completeResourceArgument(const QString &uriTemplate, const QString &argument,
                                     const QString &value, const QJsonObject &context);
QJsonObject completePromptArgument(const QString &prompt, const QString &argument,
                                   const QString &value, const QJsonObject &context);
QStringList completionValues(const QJsonObject &completeResult);

// The lists a session with these server capabilities has, in the order they are fetched:
// tools/list, then resources/list and resources/templates/list, then prompts/list.
QStringList listMethods(const QJsonObject &serverCapabilities);

// The items of a list answer (tools/list -> "tools", resources/templates/list ->
// "resourceTemplates", ...).
QJsonArray listItems(const QString &method, const QJsonObject &listResult);

} // namespace Sonde::McpRequests

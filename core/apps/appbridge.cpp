// SPDX-License-Identifier: MIT
#include "appbridge.h"

#include "protocol/mcpapps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// JSON-RPC's own codes, and the one apps.mdx uses for a refused request.
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int Refused = -32000;

QString textOf(const QJsonValue &content)
{
    // ui/message carries one block (the spec) or a list of them (the SDK): both are read.
    QStringList parts;
    const QJsonArray blocks = content.isArray() ? content.toArray() : QJsonArray{content};
    for (const QJsonValue &b : blocks) {
        const QJsonObject o = b.toObject();
        parts << (o.value("type"_L1) == "text"_L1
                      ? o.value("text"_L1).toString()
                      : u"[%1]"_s.arg(o.value("type"_L1).toString(u"content"_s)));
    }
    return parts.join(u' ');
}

} // namespace

AppBridge::AppBridge(Options options) : m_options(std::move(options))
{
}

AppBridge::Action AppBridge::post(const QJsonObject &message)
{
    Action a;
    a.kind = Action::Kind::Post;
    a.message = message;
    return a;
}

AppBridge::Action AppBridge::log(const QString &level, const QString &text)
{
    Action a;
    a.kind = Action::Kind::Log;
    a.level = level;
    a.text = text;
    return a;
}

AppBridge::Actions AppBridge::reply(const QJsonValue &id, const QJsonObject &result)
{
    return {post({{"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, id}, {"result"_L1, result}})};
}

AppBridge::Actions AppBridge::refuse(const QJsonValue &id, int code, const QString &message)
{
    return {post({{"jsonrpc"_L1, "2.0"_L1},
                  {"id"_L1, id},
                  {"error"_L1, QJsonObject{{"code"_L1, code}, {"message"_L1, message}}}}),
            log(u"warning"_s, message)};
}

AppBridge::Actions AppBridge::notify(const QString &method, const QJsonObject &params)
{
    const QJsonObject message{
        {"jsonrpc"_L1, "2.0"_L1}, {"method"_L1, method}, {"params"_L1, params}};
    // apps.mdx: "The Host MUST NOT send any request or notification to the View before it
    // receives an initialized notification."
    if (!m_initialized) {
        m_waiting.append(message);
        return {};
    }
    return {post(message)};
}

AppBridge::Actions AppBridge::fromApp(const QJsonObject &m)
{
    if (m.value("jsonrpc"_L1) != "2.0"_L1)
        return {
            log(u"warning"_s,
                u"refused a message that is not JSON-RPC 2.0: %1"_s.arg(
                    QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Compact)).left(200)))};
    const QJsonValue id = m.value("id"_L1);
    if (!m.contains("method"_L1)) {
        // An answer: only to a teardown the host asked for.
        if (m_teardowns.remove(id.toString())) {
            Action a;
            a.kind = Action::Kind::TornDown;
            return {a};
        }
        return {log(u"warning"_s, u"an answer to no request of the host (id %1)"_s.arg(
                                      id.toVariant().toString()))};
    }
    const QString method = m.value("method"_L1).toString();
    const QJsonObject params = m.value("params"_L1).toObject();
    if (id.isString() || id.isDouble())
        return onRequest(id, method, params);
    return onNotification(method, params);
}

AppBridge::Actions AppBridge::onRequest(const QJsonValue &id, const QString &method,
                                        const QJsonObject &params)
{
    if (method == "ui/initialize"_L1) {
        m_appInfo = params.value("appInfo"_L1).toObject();
        m_appDisplayModes.clear();
        for (const QJsonValue &mode : params.value("appCapabilities"_L1)
                                          .toObject()
                                          .value("availableDisplayModes"_L1)
                                          .toArray())
            m_appDisplayModes << mode.toString();
        const QString asked = params.value("protocolVersion"_L1).toString();
        QJsonObject context = m_options.hostContext;
        context.insert("displayMode"_L1, m_displayMode);
        context.insert("availableDisplayModes"_L1,
                       QJsonArray::fromStringList(m_options.displayModes));
        if (!m_options.tool.isEmpty())
            context.insert("toolInfo"_L1, QJsonObject{{"tool"_L1, m_options.tool}});
        m_initializeAnswered = true;
        Actions out{log(u"info"_s, u"the App %1 %2 initialized (protocol %3)"_s.arg(
                                       m_appInfo.value("name"_L1).toString(u"(unnamed)"_s),
                                       m_appInfo.value("version"_L1).toString(), asked))};
        out += reply(
            id, {{"protocolVersion"_L1, asked == QLatin1StringView(McpApps::ProtocolVersion)
                                            ? asked
                                            : QString::fromLatin1(McpApps::ProtocolVersion)},
                 {"hostInfo"_L1, m_options.hostInfo},
                 // No chat, no model: Sonde shows ui/message and model context in the log.
                 {"hostCapabilities"_L1,
                  QJsonObject{{"openLinks"_L1, QJsonObject{}},
                              {"serverTools"_L1, QJsonObject{}},
                              {"serverResources"_L1, QJsonObject{}},
                              {"logging"_L1, QJsonObject{}},
                              {"message"_L1, QJsonObject{{"text"_L1, QJsonObject{}}}},
                              {"updateModelContext"_L1, QJsonObject{{"text"_L1, QJsonObject{}}}}}},
                 {"hostContext"_L1, context}});
        return out;
    }
    if (!m_initializeAnswered && method != "ping"_L1)
        return refuse(id, Refused, u"%1 before ui/initialize"_s.arg(method));
    if (method == "ping"_L1)
        return reply(id, {});
    if (method == "tools/call"_L1) {
        const QString tool = params.value("name"_L1).toString();
        // apps.mdx: "Host MUST reject tools/call requests from apps for tools that don't
        // include "app" in visibility"; and only tools of the App's own server.
        if (!m_options.appMayCall || !m_options.appMayCall(tool))
            return refuse(id, InvalidParams,
                          u"the App may not call \"%1\": not a tool of its server whose "
                          u"visibility includes \"app\""_s.arg(tool));
    }
    static const QStringList forwarded = {u"tools/call"_s, u"resources/read"_s, u"resources/list"_s,
                                          u"resources/templates/list"_s, u"prompts/list"_s};
    if (forwarded.contains(method)) {
        Action a;
        a.kind = Action::Kind::CallServer;
        a.method = method;
        a.params = params;
        a.appId = id;
        return {a};
    }
    if (method == "ui/open-link"_L1) {
        const QUrl url(params.value("url"_L1).toString(), QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != "https"_L1 && url.scheme() != "http"_L1))
            return refuse(id, Refused,
                          u"opens http and https links only, not \"%1\""_s.arg(
                              params.value("url"_L1).toString().left(200)));
        Action a;
        a.kind = Action::Kind::OpenLink;
        a.appId = id;
        a.text = url.toString();
        return {a};
    }
    if (method == "ui/message"_L1) {
        Actions out{log(u"message"_s,
                        u"ui/message (%1): %2"_s.arg(params.value("role"_L1).toString(u"user"_s),
                                                     textOf(params.value("content"_L1))))};
        return out + reply(id, {});
    }
    if (method == "ui/update-model-context"_L1) {
        QString text = textOf(params.value("content"_L1));
        if (params.contains("structuredContent"_L1))
            text += u" "_s +
                    QString::fromUtf8(QJsonDocument(params.value("structuredContent"_L1).toObject())
                                          .toJson(QJsonDocument::Compact));
        Actions out{log(u"context"_s, u"ui/update-model-context: "_s + text.trimmed())};
        return out + reply(id, {});
    }
    if (method == "ui/request-display-mode"_L1) {
        const QString mode = params.value("mode"_L1).toString();
        // apps.mdx: never a mode the App did not list; otherwise the current one comes back.
        if (m_options.displayModes.contains(mode) && m_appDisplayModes.contains(mode) &&
            mode != m_displayMode) {
            m_displayMode = mode;
            Action a;
            a.kind = Action::Kind::DisplayMode;
            a.text = mode;
            return Actions{a} + reply(id, {{"mode"_L1, mode}});
        }
        return reply(id, {{"mode"_L1, m_displayMode}});
    }
    return refuse(id, MethodNotFound, u"the host does not serve %1"_s.arg(method));
}

AppBridge::Actions AppBridge::onNotification(const QString &method, const QJsonObject &params)
{
    if (method == "ui/notifications/initialized"_L1) {
        if (std::exchange(m_initialized, true))
            return {};
        Actions out;
        for (const QJsonObject &m : std::exchange(m_waiting, {}))
            out << post(m);
        return out;
    }
    if (method == "ui/notifications/size-changed"_L1) {
        Action a;
        a.kind = Action::Kind::Resize;
        a.width = params.value("width"_L1).toInt();
        a.height = params.value("height"_L1).toInt();
        return {a};
    }
    if (method == "notifications/message"_L1) {
        const QJsonValue data = params.value("data"_L1);
        return {log(
            params.value("level"_L1).toString(u"info"_s),
            data.isString()
                ? data.toString()
                : QString::fromUtf8(QJsonDocument(QJsonArray{data}).toJson(QJsonDocument::Compact))
                      .mid(1)
                      .chopped(1))};
    }
    return {log(u"info"_s, u"the App sent %1"_s.arg(method))};
}

AppBridge::Actions AppBridge::toolInput(const QJsonObject &arguments)
{
    return notify(u"ui/notifications/tool-input"_s, {{"arguments"_L1, arguments}});
}

AppBridge::Actions AppBridge::toolResult(const QJsonObject &result)
{
    return notify(u"ui/notifications/tool-result"_s, result);
}

AppBridge::Actions AppBridge::toolCancelled(const QString &reason)
{
    return notify(u"ui/notifications/tool-cancelled"_s, {{"reason"_L1, reason}});
}

AppBridge::Actions AppBridge::hostContextChanged(const QJsonObject &changed)
{
    // The host moved the App (out of fullscreen, say): what it asks next starts from there.
    if (const QString mode = changed.value("displayMode"_L1).toString(); !mode.isEmpty())
        m_displayMode = mode;
    return notify(u"ui/notifications/host-context-changed"_s, changed);
}

AppBridge::Actions AppBridge::teardown(const QString &reason)
{
    if (!m_initialized) {
        Action a; // an App that never initialized has nothing to save
        a.kind = Action::Kind::TornDown;
        return {a};
    }
    const QString id = u"sonde-teardown-%1"_s.arg(m_nextId++);
    m_teardowns.insert(id);
    return {post({{"jsonrpc"_L1, "2.0"_L1},
                  {"id"_L1, id},
                  {"method"_L1, "ui/resource-teardown"_L1},
                  {"params"_L1, QJsonObject{{"reason"_L1, reason}}}})};
}

AppBridge::Actions AppBridge::serverAnswered(const QJsonValue &appId, const QJsonObject &result,
                                             const QJsonObject &error)
{
    if (!error.isEmpty())
        return {post({{"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, appId}, {"error"_L1, error}})};
    return reply(appId, result);
}

AppBridge::Actions AppBridge::linkAnswered(const QJsonValue &appId, bool opened)
{
    if (opened)
        return reply(appId, {});
    return refuse(appId, Refused, u"the user did not open the link"_s);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>

namespace Sonde {

// The host's half of an MCP App's JSON-RPC over postMessage (apps.mdx, 2026-01-26), without
// a view: it takes each message the App posted and says what the host does about it, as
// actions the window carries out (post this to the App, send that to the server, ask the user
// before opening a link, resize the view, write a line in the App's log). Host-to-App
// notifications wait until the App said ui/notifications/initialized, as the spec requires.
// A tools/call from the App reaches the server only for a tool of the same server whose
// visibility includes "app". Pure logic; one per App view; any thread.
class AppBridge
{
public:
    struct Action
    {
        enum class Kind
        {
            Post,        // `message` to the App
            CallServer,  // `method` with `params` to the App's server; answer with appId
            OpenLink,    // ask the user, then linkAnswered(appId, ...)
            Resize,      // the App's content is `width` x `height` px
            DisplayMode, // show the App as `text` ("inline", "fullscreen")
            Log,         // a line for the App's log: `text`, `level`
            TornDown,    // the App answered ui/resource-teardown: the view may go
        };
        Kind kind = Kind::Log;
        QJsonObject message;
        QString method;
        QJsonObject params;
        QJsonValue appId;
        QString text;
        QString level;
        int width = 0;
        int height = 0;
    };
    using Actions = QList<Action>;

    struct Options
    {
        QJsonObject hostInfo;    // {name, version}
        QJsonObject hostContext; // theme, styles, displayMode, dimensions, locale...
        QJsonObject tool;        // the tool whose App this is (hostContext.toolInfo)
        // Whether the App may call this tool of its server (exists, visibility has "app").
        std::function<bool(const QString &tool)> appMayCall;
        QStringList displayModes = {QStringLiteral("inline"), QStringLiteral("fullscreen")};
    };

    explicit AppBridge(Options options);

    // One message the App posted (already known to come from the App's own frame).
    Actions fromApp(const QJsonObject &message);

    // The host's side of the call: its arguments, its result or its cancellation.
    Actions toolInput(const QJsonObject &arguments);
    Actions toolResult(const QJsonObject &result);
    Actions toolCancelled(const QString &reason);
    Actions hostContextChanged(const QJsonObject &changed);
    // Asks the App to end before the view goes; TornDown follows its answer.
    Actions teardown(const QString &reason);

    // What the server answered a CallServer (one of result and error).
    Actions serverAnswered(const QJsonValue &appId, const QJsonObject &result,
                           const QJsonObject &error);
    // The user's answer to an OpenLink.
    Actions linkAnswered(const QJsonValue &appId, bool opened);

    bool initialized() const { return m_initialized; }
    QJsonObject appInfo() const { return m_appInfo; }

private:
    Actions reply(const QJsonValue &id, const QJsonObject &result);
    Actions refuse(const QJsonValue &id, int code, const QString &message);
    Actions notify(const QString &method, const QJsonObject &params);
    Actions onRequest(const QJsonValue &id, const QString &method, const QJsonObject &params);
    Actions onNotification(const QString &method, const QJsonObject &params);
    static Action post(const QJsonObject &message);
    static Action log(const QString &level, const QString &text);

    Options m_options;
    bool m_initializeAnswered = false;
    bool m_initialized = false;
    QList<QJsonObject> m_waiting; // host notifications held until initialized
    QStringList m_appDisplayModes;
    QJsonObject m_appInfo;
    QString m_displayMode = QStringLiteral("inline");
    QSet<QString> m_teardowns; // ids of ui/resource-teardown requests sent
    int m_nextId = 1;
};

} // namespace Sonde

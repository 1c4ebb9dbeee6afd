// SPDX-License-Identifier: MIT
#pragma once

#include "apps/appbridge.h"
#include "apps/appresource.h"
#include "values/callvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

namespace Sonde {

class CoreHost;

// One MCP App shown for one tool call, without its view: it drives the host's half of the
// App's protocol (AppBridge) between the view (what the App posted, what to post to it) and
// the App's server (its tools/call and resources/read, sent through the CoreHost and marked
// as the App's), keeps the App's log, the policy refusals and console errors Chromium
// reported, and says when the App initialized and got its tool's result. The window and
// `sonde app-snapshot` both run Apps through it. Thread: the CoreHost's.
class AppSession : public QObject
{
    Q_OBJECT
public:
    struct Setup
    {
        QString server;
        QJsonObject tool; // its tools/list entry
        QJsonObject arguments;
        AppResource resource;
        QJsonObject hostInfo;
        QJsonObject hostContext;
        QJsonArray serverTools; // the server's tools, for who the App may call
    };
    struct LogLine
    {
        QString level; // error, warning, info, message, context, csp...
        QString text;
    };

    AppSession(CoreHost &host, Setup setup, QObject *parent = nullptr);

    // The view's side: a message the App's frame posted, a console line of that frame.
    void fromApp(const QJsonObject &message);
    void console(const QString &level, const QString &text);
    // The tool's call: its arguments go first, then the answer (or its cancellation).
    void deliverOutcome(const CallOutcome &outcome);
    void deliverCancelled(const QString &reason);
    void hostContextChanged(const QJsonObject &changed);
    // Asks the App to end; tornDown() follows (at once when it never initialized).
    void teardown(const QString &reason);
    // The user's answer to openLinkRequested.
    void linkAnswered(const QJsonValue &appId, bool opened);
    // A line of Sonde's own for the App's log (the sandbox, a permission asked).
    void note(const QString &level, const QString &text);

    const Setup &setup() const { return m_setup; }
    bool initialized() const { return m_bridge.initialized(); }
    bool toolResultDelivered() const { return m_resultDelivered; }
    const QList<LogLine> &log() const { return m_log; }
    // What the App's policy blocked ("connect-src http://127.0.0.1:4242/x"), and the
    // console errors of its frame, each once.
    const QStringList &cspBlocked() const { return m_cspBlocked; }
    const QStringList &consoleErrors() const { return m_consoleErrors; }
    // The tickets of the calls the App made (the transcript marks their frames).
    const QList<quint64> &calls() const { return m_callTickets; }

    // The origin a Chromium console line says a policy refused ("Refused to connect to
    // 'URL' because it violates ... directive: "connect-src ..."), as "DIRECTIVE URL".
    static std::optional<QString> policyRefusal(const QString &consoleText);

Q_SIGNALS:
    void postToApp(const QJsonObject &message);
    void logged(const Sonde::AppSession::LogLine &line);
    void resizeRequested(int width, int height);
    void displayModeRequested(const QString &mode);
    void openLinkRequested(const QString &url, const QJsonValue &appId);
    void tornDown();
    void initializedChanged();
    void toolResultPosted();
    // A call of the App's went to the server: `ticket` is the CoreHost's.
    void serverCallSent(quint64 ticket, const QString &method, const QString &name);
    // The server answered (or the call failed): `outcome.requestId` is its wire id.
    void serverCallFinished(const Sonde::CallOutcome &outcome);

private:
    void run(const AppBridge::Actions &actions);
    void onCallFinished(const CallOutcome &outcome);

    CoreHost &m_host;
    Setup m_setup;
    AppBridge m_bridge;
    QHash<quint64, QJsonValue> m_pending; // host ticket -> the App's request id
    QList<quint64> m_callTickets;
    QList<LogLine> m_log;
    QStringList m_cspBlocked;
    QStringList m_consoleErrors;
    bool m_resultDelivered = false;
    bool m_wasInitialized = false;
};

} // namespace Sonde

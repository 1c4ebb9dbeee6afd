// SPDX-License-Identifier: MIT
#pragma once

#include "clioptions.h"
#include "cliserverrequesthandler.h"
#include "engine/corehost.h"
#include "historyrecorder.h"
#include "linereader.h"
#include "transcript/transcriptwriter.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPair>
#include <QStringList>

#include <functional>
#include <memory>

namespace Sonde {

// Runs one CLI invocation on a CoreHost: connect, run the command (or exec steps), print
// JSON on stdout, shut down, and report the exit code (0 ok, 1 error answer, 2 usage or
// connection failure, 128 + N after signal N). Thread: the main thread.
class CliRunner : public QObject
{
    Q_OBJECT
public:
    // How long a shutdown after SIGINT/SIGTERM may take before the process leaves anyway.
    // The steps it bounds: notifications/cancelled for each call in flight; over HTTP, up
    // to 500 ms for those to be taken, then the DELETE, answered within 2 s; over stdio,
    // stdin closed, --shutdown-grace (100 ms), SIGTERM, 1 s, SIGKILL. Leaving earlier still
    // leaves no orphan: the transports kill their children when destroyed.
    static constexpr int SignalShutdownBoundMs = 3000;

    explicit CliRunner(CliOptions options, QObject *parent = nullptr);
    void start();
    // A SIGINT or SIGTERM: cancel what is in flight, shut down (bounded), exit 128 + signo.
    void interrupt(int signo);

Q_SIGNALS:
    void finished(int exitCode);

private:
    using Done = std::function<void(const QJsonObject &answer, bool ok)>;

    void onSessionChanged(const SessionSnapshot &s);
    void onAuthChanged(const AuthState &state);
    void addServer();
    void sayStoreNotice();
    void runCommand();
    void runStep(const QJsonObject &step, Done done);
    void call(const QString &method, const QJsonObject &params, Done done);
    // exec: steps are numbered as they are read; each waits for the synchronous step before
    // it, except after an "async" step (which lets the next one start) and for a "cancel"
    // whose step is running (handled at once, so it can reach a call that blocks the line).
    struct ExecLine
    {
        int number = 0;
        QByteArray text;
        int cancels = 0; // a cancel step: the step it cancels
    };
    void startExec();
    void onExecLine(const QByteArray &line);
    void onExecInputEnded(const QString &error);
    void pumpExec();
    void startExecStep(const ExecLine &line);
    void cancelExecStep(int number, const QJsonValue &target);
    void runConformanceClient();
    void runConformanceSteps(QList<QJsonObject> steps);
    void reportViolation(const QByteArray &raw, const QByteArray &line);
    void finish(int code);
    void emitFinished();
    void print(const QJsonObject &o, bool compact);

    CliOptions m_options;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<CliServerRequestHandler> m_handler;
    std::unique_ptr<LineReader> m_stdinReader;
    TranscriptWriter m_transcript;
    std::unique_ptr<HistoryRecorder> m_history; // --history
    bool m_historyFailed = false;
    QHash<quint64, Done> m_waiting;
    std::function<void(const SessionSnapshot &)> m_snapshotWaiter;
    QJsonArray m_notifications;
    // Protocol violations seen before the session is ready wait here: if connecting fails,
    // the connection error already quotes what the server sent, and it is said once.
    QList<QPair<QByteArray, QByteArray>> m_heldViolations; // raw (cut), printed line
    QString m_connectError;
    QList<ExecLine> m_execQueue;          // read, not started
    QHash<int, QJsonValue> m_execRunning; // started, not answered: step -> op
    QHash<int, quint64> m_execTickets;    // running steps that are calls: step -> ticket
    int m_execRead = 0;
    int m_stepStarting = 0;     // the step runStep() is starting, for call() to note its ticket
    bool m_execBlocked = false; // a synchronous step is running
    bool m_execInputEnded = false;
    bool m_execFailed = false;
    bool m_connected = false;
    QUrl m_printedAuthorizationUrl;
    QString m_storeNotice; // where tokens live, when that is worth a line (memory only)
    bool m_finishing = false;
    bool m_finishedSent = false;
    int m_signal = 0;
    int m_exitCode = 0;
};

} // namespace Sonde

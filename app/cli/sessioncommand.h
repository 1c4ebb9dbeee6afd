// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"
#include "clioptions.h"
#include "cliserverrequesthandler.h"
#include "engine/corehost.h"
#include "historyrecorder.h"
#include "transcript/redactor.h"
#include "transcript/transcriptwriter.h"

#include <QJsonObject>
#include <QPair>
#include <QStringList>

#include <memory>

namespace Sonde {

class ConformanceClient;
class ExecSession;
class StepRunner;

// The session commands (info, ping, tools, resources, prompts, exec, auth,
// conformance-client) on a CoreHost: connect, choose what runs (one step on a StepRunner, an
// ExecSession, the ConformanceClient), print JSON on stdout, shut down, and report the exit
// code (0 ok, 1 error answer, 2 usage or connection failure, 128 + N after signal N).
// Thread: the main thread.
class SessionCommand : public CliCommand
{
    Q_OBJECT
public:
    // How long a shutdown after SIGINT/SIGTERM may take before the process leaves anyway.
    // The steps it bounds: notifications/cancelled for each call in flight; over HTTP, up
    // to 500 ms for those to be taken, then the DELETE, answered within 2 s; over stdio,
    // stdin closed, --shutdown-grace (100 ms), SIGTERM, 1 s, SIGKILL. Leaving earlier still
    // leaves no orphan: the transports kill their children when destroyed.
    static constexpr int SignalShutdownBoundMs = 3000;

    explicit SessionCommand(CliOptions options, QObject *parent = nullptr);
    ~SessionCommand() override;
    void start() override;
    // A SIGINT or SIGTERM: cancel what is in flight, shut down, exit 128 + signo.
    void interrupt(int signo) override;
    int stopBoundMs() const override { return SignalShutdownBoundMs; }
    // The shutdown took too long: leave without it (the transcript and history still kept).
    void abandon(int signo) override;

private:
    void onSessionChanged(const SessionSnapshot &s);
    void onAuthChanged(const AuthState &state);
    void addServer();
    void sayStoreNotice();
    // Connected: the one-shot step, the exec session or the conformance client.
    void runCommand();
    void reportViolation(const QByteArray &raw, const QByteArray &line);
    void finish(int code);
    void emitFinished();
    void complain(const QString &message) const;
    QString masked(const QString &text) const;

    CliOptions m_options;
    Redactor m_redactor;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<StepRunner> m_steps;
    std::unique_ptr<ExecSession> m_exec;              // exec
    std::unique_ptr<ConformanceClient> m_conformance; // conformance-client
    std::unique_ptr<CliServerRequestHandler> m_handler;
    TranscriptWriter m_transcript;
    std::unique_ptr<HistoryRecorder> m_history; // --history
    bool m_historyFailed = false;
    // Protocol violations seen before the session is ready wait here: if connecting fails,
    // the connection error already quotes what the server sent, and it is said once.
    QList<QPair<QByteArray, QByteArray>> m_heldViolations; // raw (cut), printed line
    QString m_connectError;
    bool m_connected = false;
    QUrl m_printedAuthorizationUrl;
    QString m_storeNotice; // where tokens live, when that is worth a line (memory only)
    bool m_finishing = false;
    bool m_finishedSent = false;
    int m_signal = 0;
    int m_exitCode = 0;
    bool m_messagesQuieted = false; // --quiet's message handler is installed
};

} // namespace Sonde

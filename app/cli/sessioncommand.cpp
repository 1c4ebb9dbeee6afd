// SPDX-License-Identifier: MIT
#include "sessioncommand.h"

#include "clioutput.h"
#include "conformanceclient.h"
#include "execsession.h"
#include "steprunner.h"

#include "historyrecorder.h"
#include "secrets/secretstore.h"
#include "secretstorechooser.h"
#include "transcript/redactor.h"
#include "util/signalwatcher.h"

#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QtMessageHandler s_replacedHandler = nullptr;

// --quiet promises nothing but the answer: Qt's own warnings (a QIODevice read on a closed
// process channel, a socket notifier) are not the user's business there. Critical and fatal
// messages still go through, and so do Sonde's categories a developer switched on with
// QT_LOGGING_RULES.
void quietMessageHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const bool ours = context.category && qstrncmp(context.category, "sonde.", 6) == 0;
    if (!(ours || type == QtCriticalMsg || type == QtFatalMsg))
        return;
    if (s_replacedHandler)
        s_replacedHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

} // namespace

SessionCommand::SessionCommand(CliOptions options, QObject *parent)
    : CliCommand(parent), m_options(std::move(options))
{
}

SessionCommand::~SessionCommand()
{
    if (m_messagesQuieted)
        qInstallMessageHandler(s_replacedHandler);
}

QString SessionCommand::masked(const QString &text) const
{
    return m_options.showSecrets ? text : m_redactor.apply(text);
}

void SessionCommand::complain(const QString &message) const
{
    CliOutput::complain(masked(message));
}

void SessionCommand::start()
{
    if (m_options.quiet && !std::exchange(m_messagesQuieted, true))
        s_replacedHandler = qInstallMessageHandler(quietMessageHandler);
    // What sonde-cli writes besides stdout answers and the transcript (its own complaints,
    // the server's stderr, error answers, printed snapshots) masks the one server's
    // configured secrets and the patterns, unless --show-secrets.
    m_redactor.addSecrets(m_options.server);
    const QString cmd = m_options.command.value(0);
    static const QStringList known = {u"info"_s,    u"ping"_s, u"tools"_s, u"resources"_s,
                                      u"prompts"_s, u"exec"_s, u"auth"_s,  u"conformance-client"_s};
    if (!known.contains(cmd)) {
        complain(u"unknown command \"%1\" (sonde-cli --help lists them)"_s.arg(cmd));
        QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
        return;
    }
    if (cmd == "exec"_L1) {
        m_exec = std::make_unique<ExecSession>();
        connect(m_exec.get(), &ExecSession::stepAnswered, this, [this](const QJsonObject &answer) {
            CliOutput::print(answer, CliOutput::Layout::Line);
        });
        connect(m_exec.get(), &ExecSession::inputFailed, this, &SessionCommand::complain);
        connect(m_exec.get(), &ExecSession::finished, this, &SessionCommand::finish);
        QString why;
        if (!m_exec->open(m_options.command.value(1, u"-"_s), &why)) {
            complain(why);
            QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
            return;
        }
    }
    if (!m_options.transcriptPath.isEmpty()) {
        QString why;
        if (!m_transcript.open(m_options.transcriptPath, &why)) {
            complain(u"cannot write the transcript %1: %2"_s.arg(m_options.transcriptPath, why));
            QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
            return;
        }
        m_transcript.setRedactSecrets(!m_options.showSecrets);
        m_transcript.addSecrets(m_options.server);
    }
    if (!m_options.historyPath.isEmpty()) {
        // Opened on its writer thread; a history that cannot be written ends the run before
        // anything is sent, as a transcript that cannot be written does.
        m_history = std::make_unique<HistoryRecorder>();
        connect(m_history.get(), &HistoryRecorder::failed, this, [this](const QString &why) {
            m_historyFailed = true;
            complain(u"cannot record the history %1: %2"_s.arg(m_options.historyPath, why));
            m_exitCode = 2;
            emitFinished();
        });
        m_history->start(m_options.historyPath, u"sonde-cli"_s);
        m_history->addSecrets(m_options.server);
    }

    m_host = std::make_unique<CoreHost>();
    // The HTTP exchanges are worth their cost only to a run that keeps its transcript.
    m_host->setRecordHttpExchanges(m_history || !m_options.transcriptPath.isEmpty());
    m_handler =
        std::make_unique<CliServerRequestHandler>(*m_host, m_options.policy, m_options.quiet);
    m_host->setServerRequestHandler(m_handler.get());
    connect(m_host.get(), &CoreHost::sessionChanged, this, &SessionCommand::onSessionChanged);
    m_steps = std::make_unique<StepRunner>(*m_host, m_options.server.name,
                                           m_options.showSecrets ? nullptr : &m_redactor);
    connect(m_host.get(), &CoreHost::transcriptBatch, this, [this](const TranscriptBatch &batch) {
        m_transcript.write(batch);
        if (m_history)
            m_history->record(batch);
        if (m_options.quiet)
            return;
        for (const TranscriptEvent &e : batch) {
            if (e.direction == TranscriptEvent::Direction::Stderr)
                std::fprintf(stderr, "[%s] %s\n", qPrintable(e.server),
                             qPrintable(masked(QString::fromUtf8(e.raw))));
            else if (e.direction == TranscriptEvent::Direction::Violation)
                // Sonde's own notice, not a line of the server's stderr ("[name] ..."): said
                // as sonde-cli says everything of its own.
                reportViolation(e.raw.left(200), "sonde-cli: " + e.server.toUtf8() +
                                                     ": protocol violation: " + e.event.toUtf8() +
                                                     ": " + e.raw.left(200) + '\n');
        }
    });
    connect(m_host.get(), &CoreHost::shutdownFinished, this, &SessionCommand::emitFinished);
    connect(m_host.get(), &CoreHost::authChanged, this, &SessionCommand::onAuthChanged);
    if (m_options.server.route == ServerConfig::Route::Stdio || !m_options.server.auth.enabled) {
        addServer(); // no credentials to keep: no keyring is asked
        return;
    }
    // Memory only is said once (docs/auth.md).
    m_options.chooseSecretStore(this, [this](const SecretStoreChooser::Choice &choice) {
        // Said when it matters: once a server asks for authorization (or at once for
        // the auth commands), not on every call to a server that needs none.
        m_storeNotice = choice.notice;
        if (m_options.command.value(0) == "auth"_L1)
            sayStoreNotice();
        m_host->setSecretStoreFactory([choice] { return SecretStoreChooser::create(choice); });
        addServer();
    });
}

void SessionCommand::addServer()
{
    if (m_options.command.value(0) != "auth"_L1) {
        m_host->addServer(m_options.server);
        return;
    }
    // auth login|status|logout: the engine runs the flow (or reads the stored tokens) without
    // connecting the session; the answer is the server's AuthState.
    m_host->addServer(m_options.server, false);
    // The words were checked when the options were read (login, status, logout).
    const QString word = m_options.command.value(1);
    const AuthAction action = word == "logout"_L1  ? AuthAction::SignOut
                              : word == "login"_L1 ? AuthAction::Login
                                                   : AuthAction::Status;
    const quint64 ticket = m_host->auth(m_options.server.name, action);
    m_steps->await(ticket, [this](const QJsonObject &answer, bool ok) {
        CliOutput::print(answer, CliOutput::Layout::Document);
        finish(ok ? 0 : 1);
    });
}

void SessionCommand::sayStoreNotice()
{
    if (!m_storeNotice.isEmpty() && !m_options.quiet)
        complain(std::exchange(m_storeNotice, {}));
}

void SessionCommand::onAuthChanged(const AuthState &state)
{
    sayStoreNotice();
    // The one thing a person must do by hand: open the URL. Printed once per flow, on
    // stderr (stdout is the JSON answer), even with --quiet; never for the headless agent.
    if (state.status != AuthState::Status::AwaitingUser || state.authorizationUrl.isEmpty() ||
        m_options.server.auth.agent == ServerConfig::Auth::Agent::Headless ||
        state.authorizationUrl == m_printedAuthorizationUrl)
        return;
    m_printedAuthorizationUrl = state.authorizationUrl;
    CliOutput::complain(u"%1 asks for authorization; open this URL in a browser:\n  %2"_s.arg(
        state.server, state.authorizationUrl.toString(QUrl::FullyEncoded)));
}

void SessionCommand::onSessionChanged(const SessionSnapshot &s)
{
    if (!s.sessionId.isEmpty())
        m_transcript.addSessionId(s.sessionId);
    if (m_steps->takeSnapshot(s))
        return;
    if (!m_connected && s.state == SessionSnapshot::State::Ready) {
        m_connected = true;
        for (const auto &[raw, line] : std::exchange(m_heldViolations, {}))
            reportViolation(raw, line);
        if (!m_options.logLevel.isEmpty())
            m_steps->call(u"logging/setLevel"_s, {{"level"_L1, m_options.logLevel}},
                          [](const QJsonObject &, bool) {});
        runCommand();
    } else if (!m_connected && !m_finishing && s.state == SessionSnapshot::State::Failed) {
        // Once: the snapshots that follow while shutting down say Failed again.
        m_connectError = s.lastError.message();
        for (const auto &[raw, line] : std::exchange(m_heldViolations, {}))
            reportViolation(raw, line);
        complain(u"cannot connect to %1 (%2): %3"_s.arg(s.server, m_options.server.displayCommand(),
                                                        m_connectError));
        finish(2);
    }
}

void SessionCommand::reportViolation(const QByteArray &raw, const QByteArray &line)
{
    if (!m_connected && m_connectError.isEmpty()) {
        m_heldViolations.append({raw, line});
        return;
    }
    if (!m_connected && m_connectError.contains(QString::fromUtf8(raw.trimmed())))
        return;
    const QByteArray shown = masked(QString::fromUtf8(line)).toUtf8(); // a frame may carry a token
    std::fwrite(shown.constData(), 1, size_t(shown.size()), stderr);
}

void SessionCommand::runCommand()
{
    if (m_options.step) {
        // One request and out: the answer indented, as a person reads it.
        m_steps->run(*m_options.step, [this](const QJsonObject &answer, bool ok) {
            CliOutput::print(answer, CliOutput::Layout::Document);
            finish(ok ? 0 : 1);
        });
    } else if (m_exec) {
        m_exec->start(*m_steps);
    } else if (m_options.command.value(0) == "conformance-client"_L1) {
        m_conformance =
            std::make_unique<ConformanceClient>(*m_steps, ConformancePlan::fromEnvironment());
        connect(m_conformance.get(), &ConformanceClient::stepAnswered, this,
                [this](const QJsonObject &answer) {
                    CliOutput::print(answer, CliOutput::Layout::Line);
                });
        connect(m_conformance.get(), &ConformanceClient::finished, this, &SessionCommand::finish);
        m_conformance->start();
    } else {
        complain(u"incomplete or unknown command: %1 (sonde-cli --help shows the usage)"_s.arg(
            m_options.command.join(u' ')));
        finish(2);
    }
}

void SessionCommand::finish(int code)
{
    if (m_finishing)
        return;
    m_finishing = true;
    m_exitCode = code;
    if (m_exec)
        m_exec->stop();
    if (m_host)
        m_host->shutdown();
    else
        emitFinished();
}

void SessionCommand::emitFinished()
{
    if (std::exchange(m_finishedSent, true))
        return;
    m_transcript.flush();
    if (m_history) {
        m_history->stop(); // the batches queued so far land before the process ends
        if (const QString why = m_history->firstError(); !why.isEmpty() && !m_historyFailed) {
            complain(u"cannot record the history %1: %2"_s.arg(m_options.historyPath, why));
            if (m_exitCode == 0)
                m_exitCode = 1;
        }
    }
    Q_EMIT finished(m_exitCode);
}

void SessionCommand::interrupt(int signo)
{
    if (std::exchange(m_signal, signo))
        return;
    const QString name = signalName(signo);
    if (!m_options.quiet)
        complain(u"%1: closing the session (at most %2 s; again to stop at once)"_s.arg(name).arg(
            SignalShutdownBoundMs / 1000));
    // Queued before the shutdown, so the engine tells the server about each call before it
    // closes the session. Their answers ("cancelled") are still printed, as whole lines.
    if (m_host && !m_finishing)
        m_steps->cancelAll(u"interrupted by %1"_s.arg(name));
    finish(0);
    m_exitCode = SignalWatcher::exitCodeFor(signo);
}

void SessionCommand::abandon(int)
{
    if (m_finishedSent)
        return;
    complain(u"the shutdown took over %1 s: leaving without waiting for it"_s.arg(
        SignalShutdownBoundMs / 1000));
    emitFinished(); // with 128 + the signal, set by interrupt()
}

} // namespace Sonde

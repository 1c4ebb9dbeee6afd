// SPDX-License-Identifier: MIT
#include "clirunner.h"

#include "conformanceplan.h"

#include "historyrecorder.h"
#include "protocol/jsonschemavalidator.h"
#include "protocol/mcp.h"
#include "secrets/secretstore.h"
#include "secretstorechooser.h"
#include "transcript/redactor.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTimer>

#include <csignal>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

CliRunner::CliRunner(CliOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
}

void CliRunner::print(const QJsonObject &o, bool compact)
{
    QByteArray out =
        QJsonDocument(o).toJson(compact ? QJsonDocument::Compact : QJsonDocument::Indented);
    if (compact)
        out.append('\n');
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    std::fflush(stdout);
}

// What sonde-cli writes besides stdout answers and the transcript (its own complaints, the
// server's stderr, error answers, printed snapshots) masks the one server's configured
// secrets and the patterns, unless --show-secrets. Set once by CliRunner::start(); a free
// function because complain() is called where no runner is at hand.
static Redactor &cliRedactor()
{
    static Redactor redactor;
    return redactor;
}
static bool s_showSecrets = false;

static QString masked(const QString &text)
{
    return s_showSecrets ? text : cliRedactor().apply(text);
}

static QJsonObject masked(const QJsonObject &o)
{
    return s_showSecrets ? o : cliRedactor().apply(o);
}

static void complain(const QString &message)
{
    std::fprintf(stderr, "sonde-cli: %s\n", qPrintable(masked(message)));
}

void CliRunner::start()
{
    cliRedactor().addSecrets(m_options.server);
    s_showSecrets = m_options.showSecrets;
    const QString cmd = m_options.command.value(0);
    static const QStringList known = {u"info"_s,    u"ping"_s, u"tools"_s, u"resources"_s,
                                      u"prompts"_s, u"exec"_s, u"auth"_s,  u"conformance-client"_s};
    if (!known.contains(cmd)) {
        complain(u"unknown command \"%1\" (sonde-cli --help lists them)"_s.arg(cmd));
        QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
        return;
    }
    if (cmd == "exec"_L1) {
        const QString path = m_options.command.value(1, u"-"_s);
        if (path == "-"_L1) {
            // Read as the steps come, from the start: they queue while the server starts.
            m_stdinReader = std::make_unique<LineReader>(0);
            connect(m_stdinReader.get(), &LineReader::lineRead, this, &CliRunner::onExecLine);
            connect(m_stdinReader.get(), &LineReader::endOfInput, this,
                    &CliRunner::onExecInputEnded);
            m_stdinReader->start();
        } else {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                complain(u"cannot read steps from %1: %2"_s.arg(path, f.errorString()));
                QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
                return;
            }
            for (const QByteArray &line : f.readAll().split('\n'))
                onExecLine(line);
            onExecInputEnded({});
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
    connect(m_host.get(), &CoreHost::sessionChanged, this, &CliRunner::onSessionChanged);
    connect(m_host.get(), &CoreHost::callFinished, this, [this](const CallOutcome &o) {
        const Done done = m_waiting.take(o.ticket);
        if (!done)
            return;
        QJsonObject answer;
        bool ok = o.ok();
        if (o.method == "tools/call"_L1 && (o.ok() || o.error.kind() == Error::Kind::Application)) {
            answer = Mcp::toolAnswer(o.result.toObject());
        } else if (o.ok()) {
            answer =
                o.result.isObject() ? o.result.toObject() : QJsonObject{{"result"_L1, o.result}};
        } else {
            QString message = masked(o.error.message());
            // The core names the limit; the flag that raises it is this front end's to say.
            if (message.contains("frame limit"_L1))
                message += u" (sonde-cli --max-frame-mb N raises the limit)"_s;
            answer.insert("error"_L1, message);
            answer.insert("kind"_L1, Error::kindName(o.error.kind()));
            if (o.error.jsonRpcCode())
                answer.insert("code"_L1, *o.error.jsonRpcCode());
            if (!o.error.data().isUndefined() && !o.error.data().isNull())
                answer.insert("data"_L1, o.error.data());
            if (o.error.httpStatus())
                answer.insert("http_status"_L1, *o.error.httpStatus());
        }
        // How the answer was reached (docs/recovery.md §2): outcome_uncertain / replayed /
        // reconnect, breaker / retry_in_s, generations, rule, waited_ms, recovery_ms,
        // replay_verdict.
        if (o.recovery) {
            const QJsonObject recovery = o.recovery->toJson();
            for (auto it = recovery.begin(); it != recovery.end(); ++it)
                answer.insert(it.key(), it.value());
        }
        answer.insert("attempts"_L1, o.attempts);
        answer.insert("generation"_L1, o.generation);
        answer.insert("elapsed_ms"_L1, o.finishedMs - o.startedMs);
        done(answer, ok);
    });
    connect(m_host.get(), &CoreHost::notificationReceived, this,
            [this](const ServerNotification &n) {
                if (m_notifications.size() < 10'000)
                    m_notifications.append(
                        QJsonObject{{"method"_L1, n.method}, {"params"_L1, n.params}});
            });
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
    connect(m_host.get(), &CoreHost::shutdownFinished, this, &CliRunner::emitFinished);
    connect(m_host.get(), &CoreHost::authChanged, this, &CliRunner::onAuthChanged);
    if (m_options.server.route == ServerConfig::Route::Stdio || !m_options.server.auth.enabled) {
        addServer(); // no credentials to keep: no keyring is asked
        return;
    }
    // Tokens outlive the process where a keyring (or the opted-in file) keeps them, so
    // `auth login` then any command reuse them; otherwise memory, said once (docs/auth.md).
    SecretStoreChooser::Options options;
    options.encryptedFile = m_options.secretsFile;
    options.passphrase = qgetenv("SONDE_SECRETS_PASSPHRASE");
    auto *chooser = new SecretStoreChooser(options, this);
    connect(chooser, &SecretStoreChooser::chosen, this,
            [this, chooser](const SecretStoreChooser::Choice &choice) {
                chooser->deleteLater();
                // Said when it matters: once a server asks for authorization (or at once for
                // the auth commands), not on every call to a server that needs none.
                m_storeNotice = choice.notice;
                if (m_options.command.value(0) == "auth"_L1)
                    sayStoreNotice();
                m_host->setSecretStoreFactory(
                    [choice] { return SecretStoreChooser::create(choice); });
                addServer();
            });
    chooser->choose();
}

void CliRunner::addServer()
{
    if (m_options.command.value(0) != "auth"_L1) {
        m_host->addServer(m_options.server);
        return;
    }
    // auth login|status|logout: the engine runs the flow (or reads the stored tokens) without
    // connecting the session; the answer is the server's AuthState.
    m_host->addServer(m_options.server, false);
    const QString action = m_options.command.value(1);
    const quint64 ticket =
        m_host->auth(m_options.server.name, action == "logout"_L1 ? u"sign-out"_s : action);
    m_waiting.insert(ticket, [this](const QJsonObject &answer, bool ok) {
        print(answer, false);
        finish(ok ? 0 : 1);
    });
}

void CliRunner::sayStoreNotice()
{
    if (!m_storeNotice.isEmpty() && !m_options.quiet)
        complain(std::exchange(m_storeNotice, {}));
}

void CliRunner::onAuthChanged(const AuthState &state)
{
    sayStoreNotice();
    // The one thing a person must do by hand: open the URL. Printed once per flow, on
    // stderr (stdout is the JSON answer), even with --quiet; never for the headless agent.
    if (state.status != AuthState::Status::AwaitingUser || state.authorizationUrl.isEmpty() ||
        m_options.server.auth.agent == ServerConfig::Auth::Agent::Headless ||
        state.authorizationUrl == m_printedAuthorizationUrl)
        return;
    m_printedAuthorizationUrl = state.authorizationUrl;
    std::fprintf(
        stderr, "sonde-cli: %s asks for authorization; open this URL in a browser:\n  %s\n",
        qPrintable(state.server), qPrintable(state.authorizationUrl.toString(QUrl::FullyEncoded)));
    std::fflush(stderr);
}

void CliRunner::onSessionChanged(const SessionSnapshot &s)
{
    if (!s.sessionId.isEmpty())
        m_transcript.addSessionId(s.sessionId);
    if (m_snapshotWaiter) {
        auto waiter = std::exchange(m_snapshotWaiter, nullptr);
        waiter(s);
        return;
    }
    if (!m_connected && s.state == SessionSnapshot::State::Ready) {
        m_connected = true;
        for (const auto &[raw, line] : std::exchange(m_heldViolations, {}))
            reportViolation(raw, line);
        if (!m_options.logLevel.isEmpty())
            call(u"logging/setLevel"_s, {{"level"_L1, m_options.logLevel}},
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

void CliRunner::reportViolation(const QByteArray &raw, const QByteArray &line)
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

void CliRunner::call(const QString &method, const QJsonObject &params, Done done)
{
    const quint64 ticket = m_host->call(m_options.server.name, method, params);
    m_waiting.insert(ticket, std::move(done));
    if (m_stepStarting)
        m_execTickets.insert(m_stepStarting, ticket);
}

static QJsonObject parseJsonArg(const QString &text, QString *error)
{
    if (text.isEmpty())
        return {};
    QJsonParseError pe;
    const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &pe);
    if (pe.error != QJsonParseError::NoError || !d.isObject())
        *error = u"arguments must be a JSON object: %1"_s.arg(
            pe.error != QJsonParseError::NoError ? pe.errorString() : u"got another JSON type"_s);
    return d.object();
}

void CliRunner::runCommand()
{
    const QStringList c = m_options.command;
    const QString verb = c.value(0);
    const QString sub = c.value(1);
    auto oneShot = [this](const QJsonObject &step) {
        runStep(step, [this](const QJsonObject &answer, bool ok) {
            print(answer, false);
            finish(ok ? 0 : 1);
        });
    };
    auto usageError = [this](const QString &why) {
        complain(why + u" (sonde-cli --help shows the usage)"_s);
        finish(2);
    };
    QString err;
    if (verb == "info"_L1) {
        m_snapshotWaiter = [this](const SessionSnapshot &s) {
            print({{"serverInfo"_L1, s.serverInfo},
                   {"protocolVersion"_L1, s.protocolVersion},
                   {"capabilities"_L1, s.serverCapabilities},
                   {"clientCapabilities"_L1, s.clientCapabilities},
                   {"instructions"_L1, s.instructions},
                   {"session"_L1, masked(s.toJson())}},
                  false);
            finish(0);
        };
        m_host->requestSnapshot(m_options.server.name);
    } else if (verb == "ping"_L1) {
        oneShot({{"op"_L1, "ping"_L1}});
    } else if (verb == "tools"_L1 && sub == "list"_L1) {
        oneShot({{"op"_L1, "tools/list"_L1}});
    } else if (verb == "tools"_L1 && sub == "call"_L1 && c.size() >= 3) {
        const QJsonObject args = parseJsonArg(c.value(3), &err);
        if (!err.isEmpty())
            return usageError(err);
        oneShot({{"op"_L1, "call"_L1}, {"tool"_L1, c[2]}, {"args"_L1, args}});
    } else if (verb == "resources"_L1 && sub == "list"_L1) {
        oneShot({{"op"_L1, "resources/list"_L1}});
    } else if (verb == "resources"_L1 && sub == "templates"_L1) {
        oneShot({{"op"_L1, "resources/templates/list"_L1}});
    } else if (verb == "resources"_L1 && sub == "read"_L1 && c.size() >= 3) {
        oneShot({{"op"_L1, "resources/read"_L1}, {"uri"_L1, c[2]}});
    } else if (verb == "prompts"_L1 && sub == "list"_L1) {
        oneShot({{"op"_L1, "prompts/list"_L1}});
    } else if (verb == "prompts"_L1 && sub == "get"_L1 && c.size() >= 3) {
        const QJsonObject args = parseJsonArg(c.value(3), &err);
        if (!err.isEmpty())
            return usageError(err);
        oneShot({{"op"_L1, "prompts/get"_L1}, {"name"_L1, c[2]}, {"args"_L1, args}});
    } else if (verb == "conformance-client"_L1) {
        runConformanceClient();
    } else if (verb == "exec"_L1) {
        pumpExec();
    } else {
        usageError(u"incomplete or unknown command: %1"_s.arg(c.join(u' ')));
    }
}

void CliRunner::runConformanceClient()
{
    const ConformancePlan plan = ConformancePlan::fromEnvironment();
    runStep({{"op"_L1, "tools/list"_L1}}, [this, plan](const QJsonObject &answer, bool ok) {
        print(QJsonObject{{"op"_L1, "tools/list"_L1},
                          {"ok"_L1, ok},
                          {"tools"_L1, answer.value("tools"_L1).toArray().size()}},
              true);
        if (!ok) {
            finish(1);
            return;
        }
        QList<QJsonObject> steps = plan.toolSteps(answer.value("tools"_L1).toArray());
        if (plan.coversResourcesAndPrompts()) {
            steps.append({{"op"_L1, "resources/list"_L1}, {"then"_L1, "resources/read"_L1}});
            steps.append({{"op"_L1, "prompts/list"_L1}, {"then"_L1, "prompts/get"_L1}});
        }
        runConformanceSteps(steps);
    });
}

void CliRunner::runConformanceSteps(QList<QJsonObject> steps)
{
    if (steps.isEmpty()) {
        finish(m_execFailed ? 1 : 0);
        return;
    }
    const QJsonObject step = steps.takeFirst();
    runStep(step, [this, step, steps](QJsonObject answer, bool ok) mutable {
        for (auto it = step.begin(); it != step.end(); ++it)
            if (it.key() != "then"_L1)
                answer.insert(it.key(), it.value());
        print(answer, true);
        m_execFailed |= !ok;
        // A list step is followed by one read (or get) of each item it listed.
        const QString then = step.value("then"_L1).toString();
        QList<QJsonObject> more;
        if (then == "resources/read"_L1)
            for (const QJsonValue &r : answer.value("resources"_L1).toArray())
                more.append({{"op"_L1, then}, {"uri"_L1, r.toObject().value("uri"_L1)}});
        if (then == "prompts/get"_L1)
            for (const QJsonValue &p : answer.value("prompts"_L1).toArray())
                more.append({{"op"_L1, then}, {"name"_L1, p.toObject().value("name"_L1)}});
        // Deferred: this continuation belongs to the step that just ended.
        QTimer::singleShot(0, this,
                           [this, remaining = more + steps] { runConformanceSteps(remaining); });
    });
}

void CliRunner::onExecLine(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    ExecLine l{++m_execRead, line};
    const QJsonObject step = QJsonDocument::fromJson(line).object();
    if (step.value("op"_L1).toString() == "cancel"_L1)
        l.cancels = step.value("step"_L1).toInt();
    m_execQueue.append(l);
    pumpExec();
}

void CliRunner::onExecInputEnded(const QString &error)
{
    if (!error.isEmpty()) {
        complain(error);
        m_execFailed = true;
    }
    m_execInputEnded = true;
    pumpExec();
}

void CliRunner::pumpExec()
{
    // Before the session is ready steps wait; once finishing, nothing new starts.
    if (!m_connected || m_finishing || m_options.command.value(0) != "exec"_L1)
        return;
    while (!m_execBlocked && !m_execQueue.isEmpty() && !m_finishing)
        startExecStep(m_execQueue.takeFirst());
    // Waiting on a synchronous step: a cancel for a call that runs now goes ahead of the line.
    for (qsizetype i = 0; i < m_execQueue.size() && !m_finishing;) {
        const ExecLine l = m_execQueue.at(i);
        if (l.cancels && m_execTickets.contains(l.cancels)) {
            m_execQueue.removeAt(i);
            startExecStep(l);
        } else {
            ++i;
        }
    }
    if (m_execInputEnded && m_execQueue.isEmpty() && m_execRunning.isEmpty())
        finish(m_execFailed ? 1 : 0);
}

void CliRunner::startExecStep(const ExecLine &line)
{
    const int stepNo = line.number;
    QJsonParseError pe;
    const QJsonDocument d = QJsonDocument::fromJson(line.text, &pe);
    if (pe.error != QJsonParseError::NoError || !d.isObject() ||
        !d.object().value("op"_L1).isString()) {
        const QString why =
            pe.error != QJsonParseError::NoError
                ? u"step is not JSON: %1 at byte %2"_s.arg(pe.errorString()).arg(pe.offset)
                : u"a step must be a JSON object with a string \"op\""_s;
        print({{"step"_L1, stepNo}, {"op"_L1, QJsonValue(QJsonValue::Null)}, {"error"_L1, why}},
              true);
        m_execFailed = true;
        return;
    }
    const QJsonObject step = d.object();
    const QJsonValue op = step.value("op"_L1);
    if (op.toString() == "cancel"_L1) {
        cancelExecStep(stepNo, step.value("step"_L1));
        return;
    }
    const bool async = step.value("async"_L1).toBool();
    m_execRunning.insert(stepNo, op);
    if (!async)
        m_execBlocked = true;
    m_stepStarting = stepNo;
    runStep(step, [this, stepNo, op, async](QJsonObject answer, bool ok) {
        if (!m_execRunning.remove(stepNo))
            return; // answered already (cancelled before it started)
        m_execTickets.remove(stepNo);
        answer.insert("step"_L1, stepNo);
        answer.insert("op"_L1, op);
        if (async)
            answer.insert("async"_L1, true);
        print(answer, true);
        m_execFailed |= !ok;
        if (!async)
            m_execBlocked = false;
        // Later, not from inside runStep(), which may answer before it returns.
        QTimer::singleShot(0, this, &CliRunner::pumpExec);
    });
    m_stepStarting = 0;
}

void CliRunner::cancelExecStep(int number, const QJsonValue &target)
{
    const int n = target.toInt();
    QJsonObject answer{{"step"_L1, number}, {"op"_L1, "cancel"_L1}};
    if (!target.isDouble() || n <= 0) {
        answer.insert("error"_L1, "cancel needs \"step\": the number of a step still running"_L1);
        m_execFailed = true;
    } else if (m_execTickets.contains(n)) {
        // The call's own answer follows, once the server has been told (notifications/cancelled).
        m_host->cancel(m_execTickets.value(n), u"cancelled by step %1"_s.arg(number));
        answer.insert("cancelled"_L1, n);
    } else {
        answer.insert("error"_L1, m_execRunning.contains(n)
                                      ? u"step %1 is not a request and cannot be cancelled"_s.arg(n)
                                      : u"step %1 is not running"_s.arg(n));
        m_execFailed = true;
    }
    print(answer, true);
}

void CliRunner::runStep(const QJsonObject &step, Done done)
{
    const QString op = step.value("op"_L1).toString();
    auto object = [&](const char *key) { return step.value(QLatin1StringView(key)).toObject(); };
    // What the step carries for the server is passed as it is or refused: an array or a
    // number where an object belongs must not become {} on the way.
    static const QJsonObject objectMembers = [] {
        QJsonObject properties;
        for (const char *key : {"args", "params", "ref", "argument", "context"})
            properties.insert(QLatin1StringView(key), QJsonObject{{"type"_L1, "object"_L1}});
        return QJsonObject{{"properties"_L1, properties}};
    }();
    if (const auto wrong = JsonSchemaValidator::validate(step, objectMembers); !wrong.isEmpty())
        return done({{"error"_L1, wrong.first().text()}}, false);
    if (op == "call"_L1) {
        if (!step.value("tool"_L1).isString())
            return done({{"error"_L1, "call needs \"tool\""_L1}}, false);
        call(u"tools/call"_s,
             {{"name"_L1, step.value("tool"_L1)}, {"arguments"_L1, object("args")}}, done);
    } else if (op == "tools/list"_L1 || op == "resources/list"_L1 ||
               op == "resources/templates/list"_L1 || op == "prompts/list"_L1 || op == "ping"_L1) {
        call(op, {}, done);
    } else if (op == "resources/read"_L1 || op == "resources/subscribe"_L1 ||
               op == "resources/unsubscribe"_L1) {
        if (!step.value("uri"_L1).isString())
            return done({{"error"_L1, u"%1 needs \"uri\""_s.arg(op)}}, false);
        call(op, {{"uri"_L1, step.value("uri"_L1)}}, done);
    } else if (op == "prompts/get"_L1) {
        if (!step.value("name"_L1).isString())
            return done({{"error"_L1, "prompts/get needs \"name\""_L1}}, false);
        call(op, {{"name"_L1, step.value("name"_L1)}, {"arguments"_L1, object("args")}}, done);
    } else if (op == "complete"_L1) {
        QJsonObject params{{"ref"_L1, object("ref")}, {"argument"_L1, object("argument")}};
        if (step.contains("context"_L1))
            params.insert("context"_L1, object("context"));
        call(u"completion/complete"_s, params, done);
    } else if (op == "logging/setLevel"_L1) {
        call(op, {{"level"_L1, step.value("level"_L1).toString(u"info"_s)}}, done);
    } else if (op == "request"_L1) {
        if (!step.value("method"_L1).isString())
            return done({{"error"_L1, "request needs \"method\""_L1}}, false);
        call(step.value("method"_L1).toString(), object("params"), done);
    } else if (op == "fault"_L1) {
        const auto kind = Fault::parseKind(step.value("kind"_L1).toString());
        if (!kind)
            return done({{"error"_L1, u"unknown fault kind \"%1\" (%2)"_s.arg(
                                          step.value("kind"_L1).toString(), Fault::nameList())}},
                        false);
        Fault f;
        f.kind = *kind;
        f.ms = step.value("ms"_L1).toInt();
        f.status = step.value("status"_L1).toInt();
        m_waiting.insert(m_host->injectFault(m_options.server.name, f), done);
    } else if (op == "reconnect"_L1) {
        m_waiting.insert(m_host->reconnect(m_options.server.name), done);
    } else if (op == "breaker"_L1) {
        m_waiting.insert(m_host->breaker(m_options.server.name, step.value("action"_L1).toString()),
                         done);
    } else if (op == "sleep"_L1) {
        const int ms = std::clamp(step.value("ms"_L1).toInt(0), 0, 3'600'000);
        QTimer::singleShot(ms, this, [done, ms] { done({{"slept_ms"_L1, ms}}, true); });
    } else if (op == "notifications"_L1) {
        done({{"notifications"_L1, std::exchange(m_notifications, {})}}, true);
    } else if (op == "state"_L1) {
        m_snapshotWaiter = [done](const SessionSnapshot &s) { done(masked(s.toJson()), true); };
        m_host->requestSnapshot(m_options.server.name);
    } else {
        done({{"error"_L1, u"unknown op \"%1\""_s.arg(op)}}, false);
    }
}

void CliRunner::finish(int code)
{
    if (m_finishing)
        return;
    m_finishing = true;
    m_exitCode = code;
    if (m_host)
        m_host->shutdown();
    else
        emitFinished();
}

void CliRunner::emitFinished()
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

void CliRunner::interrupt(int signo)
{
    if (std::exchange(m_signal, signo))
        return;
    const QString name = signo == SIGINT    ? u"SIGINT"_s
                         : signo == SIGTERM ? u"SIGTERM"_s
                                            : u"signal %1"_s.arg(signo);
    if (!m_options.quiet)
        complain(u"%1: closing the session (at most %2 s; again to stop at once)"_s.arg(name).arg(
            SignalShutdownBoundMs / 1000));
    // Queued before the shutdown, so the engine tells the server about each call before it
    // closes the session. Their answers ("cancelled") are still printed, as whole lines.
    if (m_host && !m_finishing) {
        for (auto it = m_waiting.cbegin(); it != m_waiting.cend(); ++it)
            m_host->cancel(it.key(), u"interrupted by %1"_s.arg(name));
    }
    finish(0);
    m_exitCode = 128 + signo;
    QTimer::singleShot(SignalShutdownBoundMs, this, [this] {
        if (m_finishedSent)
            return;
        complain(u"the shutdown took over %1 s: leaving without waiting for it"_s.arg(
            SignalShutdownBoundMs / 1000));
        emitFinished();
    });
}

} // namespace Sonde

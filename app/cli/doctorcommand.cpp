// SPDX-License-Identifier: MIT
#include "doctorcommand.h"

#include "clioutput.h"
#include "doctor/doctorformats.h"
#include "doctor/doctorrun.h"
#include "secrets/secretstore.h"
#include "util/signalwatcher.h"

#include <QSaveFile>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

DoctorCommand::DoctorCommand(CliOptions options, QObject *parent)
    : CliCommand(parent), m_options(std::move(options))
{
}

DoctorCommand::~DoctorCommand() = default;

void DoctorCommand::start()
{
    m_redactor.addSecrets(m_options.server);
    if (!m_options.transcriptPath.isEmpty()) {
        QString why;
        if (!m_transcript.open(m_options.transcriptPath, &why)) {
            CliOutput::complain(
                u"cannot write the transcript %1: %2"_s.arg(m_options.transcriptPath, why));
            QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
            return;
        }
        m_transcript.setRedactSecrets(!m_options.showSecrets);
        m_transcript.addSecrets(m_options.server);
    }
    if (m_options.server.route == ServerConfig::Route::Stdio || !m_options.server.auth.enabled) {
        startRun({});
        return;
    }
    // The tokens `sonde-cli auth login` kept, as every session command finds them.
    m_options.chooseSecretStore(this, [this](const SecretStoreChooser::Choice &choice) {
        startRun([choice] { return SecretStoreChooser::create(choice); });
    });
}

void DoctorCommand::startRun(std::function<std::unique_ptr<SecretStore>()> secrets)
{
    DoctorRun::Options o;
    o.server = m_options.server;
    o.secretStoreFactory = std::move(secrets);
    o.only = m_options.doctor.only;
    o.allowWrites = m_options.doctor.allowWrites;
    if (m_options.timeoutGiven) {
        o.probeTimeoutMs = m_options.server.requestTimeoutMs;
        o.toolTimeoutMs = m_options.server.requestTimeoutMs;
    } else {
        // A doctor run answers in seconds or says why: the handshake gets 10 s, not 30.
        o.server.initializeTimeoutMs = 10'000;
    }
    m_run = std::make_unique<DoctorRun>(o);
    connect(m_run.get(), &DoctorRun::transcriptBatch, this,
            [this](const TranscriptBatch &batch) { m_transcript.write(batch); });
    if (!m_options.quiet) {
        connect(m_run.get(), &DoctorRun::stepStarted, this,
                [](const QString &what) { CliOutput::complain(what, u"sonde-cli doctor"_s); });
    }
    connect(m_run.get(), &DoctorRun::finished, this, &DoctorCommand::onFinished);
    // The one thing a person must do by hand, said even with --quiet (as every command does).
    connect(m_run.get(), &DoctorRun::authChanged, this, [this](const AuthState &state) {
        if (state.status != AuthState::Status::AwaitingUser || state.authorizationUrl.isEmpty() ||
            m_options.server.auth.agent == ServerConfig::Auth::Agent::Headless ||
            state.authorizationUrl == m_printedAuthorizationUrl)
            return;
        m_printedAuthorizationUrl = state.authorizationUrl;
        CliOutput::complain(u"%1 asks for authorization; open this URL in a browser:\n  %2"_s.arg(
            state.server, state.authorizationUrl.toString(QUrl::FullyEncoded)));
    });
    if (m_options.doctor.allowWrites && !m_options.quiet)
        CliOutput::complain(u"--allow-writes: every tool not annotated readOnlyHint: true is "
                            u"called once, with arguments built from its schema"_s,
                            u"sonde-cli doctor"_s);
    m_run->start();
}

void DoctorCommand::onFinished(const DoctorReport &report)
{
    if (std::exchange(m_done, true))
        return;
    for (const QString &id : m_run->sessionIds()) {
        m_redactor.addSessionId(id);
        m_transcript.addSessionId(id);
    }
    m_transcript.flush();
    const Redactor shown = m_options.showSecrets ? Redactor() : m_redactor;
    const QString artifact = !m_options.configPath.isEmpty() ? m_options.configPath : report.target;
    const DoctorFormats::Format format = DoctorFormats::formatFromName(m_options.doctor.format)
                                             .value_or(DoctorFormats::Format::Text);
    const QByteArray out = DoctorFormats::render(format, report, shown, artifact);
    int code = m_signal ? SignalWatcher::exitCodeFor(m_signal) : report.exitCode();
    if (m_options.doctor.out.isEmpty()) {
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        std::fflush(stdout);
    } else {
        QSaveFile file(m_options.doctor.out);
        if (!file.open(QIODevice::WriteOnly) || file.write(out) != out.size() || !file.commit()) {
            CliOutput::complain(
                u"cannot write %1: %2"_s.arg(m_options.doctor.out, file.errorString()));
            code = 2;
        } else if (!m_options.quiet) {
            CliOutput::complain(
                u"%1 errors, %2 warnings, %3 info: %4"_s.arg(report.count(DoctorSeverity::Error))
                    .arg(report.count(DoctorSeverity::Warning))
                    .arg(report.count(DoctorSeverity::Info))
                    .arg(m_options.doctor.out),
                u"sonde-cli doctor"_s);
        }
    }
    Q_EMIT finished(code);
}

void DoctorCommand::interrupt(int signo)
{
    if (std::exchange(m_signal, signo))
        return;
    CliOutput::complain(u"%1: stopping; the report says what ran"_s.arg(signalName(signo)),
                        u"sonde-cli doctor"_s);
    if (m_run)
        m_run->stop();
    else
        Q_EMIT finished(SignalWatcher::exitCodeFor(signo));
}

void DoctorCommand::abandon(int signo)
{
    if (m_done)
        return;
    m_done = true;
    m_transcript.flush();
    Q_EMIT finished(SignalWatcher::exitCodeFor(signo));
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/doctor/doctorcontroller.h"

#include "application/doctor/doctorfindingmodel.h"
#include "application/doctor/doctorfindingstore.h"
#include "application/doctor/livelinter.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/transcript/transcriptstore.h"
#include "doctor/doctorrun.h"

namespace Sonde {

DoctorController::DoctorController(ServerRegistry *registry, TranscriptStore *transcript,
                                   QObject *parent)
    : QObject(parent), m_registry(registry), m_store(new DoctorFindingStore(this)),
      m_linter(new LiveLinter(this))
{
    const ServerStore *servers = registry->servers();
    for (int row = 0; row < servers->size(); ++row)
        watch(servers->config(row).name, servers->config(row).route == ServerConfig::Route::Stdio);
    connect(registry, &ServerRegistry::serverAdded, this, [this](const ServerConfig &c) {
        watch(c.name, c.route == ServerConfig::Route::Stdio);
    });
    connect(registry, &ServerRegistry::serverRemoved, this, &DoctorController::forget);
    // After the store took the batch, so each event's number is the one its row has.
    connect(transcript, &TranscriptStore::batchAppended, m_linter, &LiveLinter::feed);
    connect(m_linter, &LiveLinter::found, m_store, &DoctorFindingStore::addFindings);
}

DoctorController::~DoctorController() = default;

void DoctorController::watch(const QString &server, bool stdio)
{
    m_store->addServer(server);
    m_linter->watch(server, stdio);
}

void DoctorController::forget(const QString &server)
{
    stop(server);
    m_runs.remove(server); // what it still sends is not this server's any more
    m_linter->forget(server);
    m_store->removeServer(server);
}

QString DoctorController::whyNoRun(const QString &server) const
{
    const ServerStore *servers = m_registry->servers();
    const int row = servers->indexOf(server);
    if (row < 0)
        return tr("No server is selected.");
    if (servers->isProxied(row))
        return tr("%1 is a client's session seen through sonde-cli proxy: Sonde has no "
                  "configuration to connect to its server with, so it cannot run the probes. "
                  "The live checks still read every message that passes.")
            .arg(server);
    return {};
}

bool DoctorController::start(const QString &server, bool allowWrites)
{
    if (isRunning(server) || !whyNoRun(server).isEmpty())
        return false;
    const ServerStore *servers = m_registry->servers();
    DoctorRun::Options options;
    options.server = servers->config(servers->indexOf(server));
    options.allowWrites = allowWrites;
    auto *run = new DoctorRun(std::move(options), this);
    m_runs.insert(server, run);
    // A run's signals count while it is the server's run: one stopped because its server was
    // removed (and perhaps added again) still ends, but into nothing.
    const auto current = [this, server, run] { return m_runs.value(server) == run; };
    connect(run, &DoctorRun::findingAdded, this, [this, server, current](const DoctorFinding &f) {
        if (current())
            m_store->addFindings(server, {f});
    });
    connect(run, &DoctorRun::stepStarted, this, [this, server, current](const QString &step) {
        if (current())
            m_store->runStep(server, step);
    });
    connect(run, &DoctorRun::finished, this,
            [this, server, run, current](const DoctorReport &report) {
                const bool stopped = m_stopped.remove(run);
                if (current()) {
                    m_runs.remove(server);
                    m_store->runFinished(server, report, stopped);
                    const auto n = [&report](DoctorSeverity severity) {
                        return DoctorFindingModel::countText(severity, report.count(severity));
                    };
                    Q_EMIT status(tr("Doctor on %1 %2: %3, %4, %5")
                                      .arg(server, stopped ? tr("stopped") : tr("finished"),
                                           n(DoctorSeverity::Error), n(DoctorSeverity::Warning),
                                           n(DoctorSeverity::Info)));
                }
                run->deleteLater();
            });
    m_store->runStarted(server);
    Q_EMIT status(tr("Doctor on %1: running the probes on a session of their own").arg(server));
    run->start();
    return true;
}

void DoctorController::stop(const QString &server)
{
    DoctorRun *run = m_runs.value(server);
    if (!run || m_stopped.contains(run))
        return;
    m_stopped.insert(run);
    run->stop();
}

} // namespace Sonde

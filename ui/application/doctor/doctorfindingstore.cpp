// SPDX-License-Identifier: MIT
#include "application/doctor/doctorfindingstore.h"

#include <QThread>

namespace Sonde {

void DoctorFindingStore::addServer(const QString &server)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_servers.contains(server))
        m_servers.insert(server, {});
}

void DoctorFindingStore::removeServer(const QString &server)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_servers.remove(server))
        return;
    Q_EMIT findingsReset(server);
    Q_EMIT countsChanged(server);
    Q_EMIT runChanged(server);
}

void DoctorFindingStore::addFindings(const QString &server, const QList<DoctorFinding> &findings)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto it = m_servers.find(server);
    if (it == m_servers.end() || findings.isEmpty())
        return;
    Entry &e = it.value();
    const int first = int(e.findings.size());
    for (const DoctorFinding &f : findings) {
        if (e.findings.size() >= MaxFindings) {
            ++e.unkept;
            continue;
        }
        e.findings.append(f);
        ++e.counts[int(f.severity)];
    }
    const int last = int(e.findings.size()) - 1;
    if (last < first)
        return;
    Q_EMIT findingsAdded(server, first, last);
    Q_EMIT countsChanged(server);
}

const QList<DoctorFinding> &DoctorFindingStore::findings(const QString &server) const
{
    static const QList<DoctorFinding> none;
    const auto it = m_servers.constFind(server);
    return it == m_servers.cend() ? none : it->findings;
}

int DoctorFindingStore::count(const QString &server, DoctorSeverity severity) const
{
    const auto it = m_servers.constFind(server);
    return it == m_servers.cend() ? 0 : it->counts[int(severity)];
}

int DoctorFindingStore::problemCount(const QString &server) const
{
    return count(server, DoctorSeverity::Error) + count(server, DoctorSeverity::Warning);
}

int DoctorFindingStore::unkept(const QString &server) const
{
    const auto it = m_servers.constFind(server);
    return it == m_servers.cend() ? 0 : it->unkept;
}

void DoctorFindingStore::recount(Entry &entry)
{
    entry.counts[0] = entry.counts[1] = entry.counts[2] = 0;
    for (const DoctorFinding &f : std::as_const(entry.findings))
        ++entry.counts[int(f.severity)];
}

void DoctorFindingStore::runStarted(const QString &server)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto it = m_servers.find(server);
    if (it == m_servers.end())
        return;
    Entry &e = it.value();
    const qsizetype removed = e.findings.removeIf([](const DoctorFinding &f) { return !f.live; });
    e.run = Run{};
    e.run.phase = Run::Phase::Running;
    if (removed > 0) {
        recount(e);
        Q_EMIT findingsReset(server);
        Q_EMIT countsChanged(server);
    }
    Q_EMIT runChanged(server);
}

void DoctorFindingStore::runStep(const QString &server, const QString &step)
{
    const auto it = m_servers.find(server);
    if (it == m_servers.end() || it->run.phase != Run::Phase::Running)
        return;
    it->run.step = step;
    Q_EMIT runChanged(server);
}

void DoctorFindingStore::runFinished(const QString &server, const DoctorReport &report,
                                     bool stopped)
{
    const auto it = m_servers.find(server);
    if (it == m_servers.end())
        return;
    it->run.phase = Run::Phase::Finished;
    it->run.step.clear();
    it->run.report = report;
    it->run.stopped = stopped;
    Q_EMIT runChanged(server);
}

DoctorFindingStore::Run DoctorFindingStore::run(const QString &server) const
{
    const auto it = m_servers.constFind(server);
    return it == m_servers.cend() ? Run{} : it->run;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

namespace Sonde {

// What the doctor found on each server, as the window shows it: the live findings (the
// passive lints of the server's session, DoctorFinding::live) and those of its last Run
// (the active probes on a session of the run's own), in the order they came, with the run's
// progress and its report. A store, not a model: DoctorFindingModel shows one server's, the
// server list counts them. Each (check, subject) is said once per linter, so a server's list
// stays short; it is bounded all the same (MaxFindings, the newest past it counted, not
// kept). Findings for a server not added (or removed) are dropped. Thread: GUI; owned by the
// DoctorController.
class DoctorFindingStore : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxFindings = 1000;

    // Where a server's last Run is.
    struct Run
    {
        enum class Phase
        {
            None, // never run in this window
            Running,
            Finished
        };
        Phase phase = Phase::None;
        QString step;         // the step under way, while running
        DoctorReport report;  // once finished
        bool stopped = false; // finished because it was stopped
    };

    using QObject::QObject;

    // Adding a server again keeps what it has.
    void addServer(const QString &server);
    void removeServer(const QString &server);
    bool holds(const QString &server) const { return m_servers.contains(server); }

    void addFindings(const QString &server, const QList<DoctorFinding> &findings);
    // The server's findings, live and from its run, oldest first.
    // Empty for a server not held.
    const QList<DoctorFinding> &findings(const QString &server) const;
    int count(const QString &server, DoctorSeverity severity) const;
    // Errors and warnings: what the server's row counts (information is not a problem).
    int problemCount(const QString &server) const;
    // Findings past MaxFindings, not kept.
    int unkept(const QString &server) const;

    // A run begins: the last run's findings go (findingsReset), the live ones stay.
    void runStarted(const QString &server);
    void runStep(const QString &server, const QString &step);
    void runFinished(const QString &server, const DoctorReport &report, bool stopped);
    Run run(const QString &server) const;

Q_SIGNALS:
    // findings(server)[first..last] are new.
    void findingsAdded(const QString &server, int first, int last);
    // The server's list changed other than at its end (a new run took the old one's away).
    void findingsReset(const QString &server);
    // Either of the above: its counts may have changed.
    void countsChanged(const QString &server);
    void runChanged(const QString &server);

private:
    struct Entry
    {
        QList<DoctorFinding> findings;
        int counts[3] = {0, 0, 0}; // by DoctorSeverity
        int unkept = 0;
        Run run;
    };
    void recount(Entry &entry);

    QHash<QString, Entry> m_servers;
};

} // namespace Sonde

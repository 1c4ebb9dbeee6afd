// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

namespace Sonde {

class DoctorFindingStore;
class DoctorRun;
class LiveLinter;
class ServerRegistry;
class TranscriptStore;

// The doctor in the window (docs/doctor.md, "Live, in the window"). Every server the
// registry adds, Sonde's own and a proxied client's, is linted live: each batch the window's
// transcript takes goes to the LiveLinter, numbered as the transcript numbers its events, so
// a finding opens its row there. Run starts a DoctorRun on a server's configuration, on a
// session of the run's own (the user's session is not touched), and puts what it finds and
// how far it got in the store beside the live findings. A proxied row has no configuration
// to connect with: its Run is refused, with the reason. A server removed takes its findings,
// its linter and its run with it. Thread: GUI; owned by the window.
class DoctorController : public QObject
{
    Q_OBJECT
public:
    DoctorController(ServerRegistry *registry, TranscriptStore *transcript,
                     QObject *parent = nullptr);
    ~DoctorController() override;

    DoctorFindingStore *findings() const { return m_store; }
    LiveLinter *linter() const { return m_linter; }

    // Why Run cannot start on `server` (empty: it can, or a run is going, which Stop ends).
    QString whyNoRun(const QString &server) const;
    // Starts a run on the server's configuration; `allowWrites` also calls the tools not
    // marked read-only (DoctorRun::Options). False, and nothing started, when whyNoRun()
    // says why or a run is already going.
    bool start(const QString &server, bool allowWrites = false);
    // Ends the server's run with what it found so far (its report says it was stopped).
    void stop(const QString &server);
    bool isRunning(const QString &server) const { return m_runs.contains(server); }

Q_SIGNALS:
    // A line for the status bar: a run began, or how it ended.
    void status(const QString &message);

private:
    void watch(const QString &server, bool stdio);
    void forget(const QString &server);

    ServerRegistry *m_registry;
    DoctorFindingStore *m_store = nullptr;
    LiveLinter *m_linter = nullptr;
    QHash<QString, DoctorRun *> m_runs;
    QSet<const DoctorRun *> m_stopped;
};

} // namespace Sonde

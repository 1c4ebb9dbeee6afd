// SPDX-License-Identifier: MIT
#pragma once

#include "clistep.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>

#include <functional>

namespace Sonde {

class CoreHost;
class Redactor;
struct CallOutcome;
struct SessionSnapshot;

// Runs one CliStep on one server of a CoreHost and calls back with the answer as sonde-cli
// prints it: the result (a tool call's as Mcp::toolAnswer), or the error with its kind and
// codes, then how it was reached (recovery, attempts, generation, elapsed_ms). It keeps
// what the steps share: the calls waiting for their answer, the notifications received
// since the last "notifications" step, and who waits for the next snapshot.
// Thread: the main thread. Owned by CliRunner, beside the CoreHost it was given.
class StepRunner : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const QJsonObject &answer, bool ok)>;

    // `masker` hides the secrets in error texts and snapshots; null with --show-secrets.
    StepRunner(CoreHost &host, QString server, const Redactor *masker, QObject *parent = nullptr);

    // Starts `step`. Returns the ticket of the request it sent, for cancel(), or 0 when the
    // step is not a request (a fault, a sleep, a snapshot): those cannot be cancelled.
    // `done` may be called before run() returns (a refused or an immediate step).
    quint64 run(const CliStep &step, Done done);
    // A request outside of any step (--log-level's logging/setLevel).
    quint64 call(const QString &method, const QJsonObject &params, Done done);
    // Any ticket of the host's whose callFinished answers (the auth commands').
    void await(quint64 ticket, Done done);
    void cancel(quint64 ticket, const QString &reason);
    // Every call still waiting, as SIGINT wants; their answers still come.
    void cancelAll(const QString &reason);

    // The session's snapshots, from CliRunner: true when one was taken by a step waiting
    // for it (the caller then reads nothing more from it).
    bool takeSnapshot(const SessionSnapshot &snapshot);

private:
    // From this size on, a tool's text is printed from its frame (CliOutput::verbatim).
    static constexpr qsizetype VerbatimBytes = 1024 * 1024;
    void onCallFinished(const CallOutcome &outcome);
    static QJsonObject verbatimText(const CallOutcome &o);
    QString masked(const QString &text) const;
    QJsonObject masked(const QJsonObject &o) const;

    CoreHost &m_host;
    QString m_server;
    const Redactor *m_masker;
    QHash<quint64, Done> m_waiting;
    std::function<void(const SessionSnapshot &)> m_snapshotWaiter;
    QJsonArray m_notifications;
};

} // namespace Sonde

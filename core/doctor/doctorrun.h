// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "doctor/doctorfinding.h"
#include "doctor/messagelinter.h"
#include "doctor/stateshot.h"
#include "engine/corehost.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>

class QTimer;

namespace Sonde {

class RawHttpProbes;
class SecretStore;
class RawStdioProbes;

// One doctor run against one server (docs/doctor.md): a session of its own through the
// engine (its own CoreHost, so the user's session in the window is never disturbed), every
// message of it through the MessageLinter, then the active probes gated by what the server
// declares: ping, an unknown method, each declared list walked page by page, an invalid
// cursor, the read-only tools called with arguments built from their schemas between two
// shots of what the server lists and serves (and with --allow-writes, each other tool once),
// then the raw HTTP or stdio probes. Each step has its own time bound; the run always ends
// with finished(), with what it found. Thread: the caller's (the CoreHost's worker does the
// engine's work). Owned by the command or the window panel that started it.
class DoctorRun : public QObject, private ServerRequestHandler
{
    Q_OBJECT
public:
    struct Options
    {
        ServerConfig server;
        QStringList only; // check ids; empty: every check
        bool allowWrites = false;
        int probeTimeoutMs = 5000; // each request of a probe
        // Each tool call. Short: the doctor checks rules, not endurance; a tool that runs
        // longer is cancelled and said as information (tools.call-no-answer).
        int toolTimeoutMs = 2500;
        int maxResourceReads = 20; // resources read for each state shot
        int maxPages = 50;         // pages of one list before the walk stops
        // Where the engine keeps an HTTP server's tokens (the keyring `sonde-cli auth login`
        // filled); none: memory, as for any session without one.
        std::function<std::unique_ptr<SecretStore>()> secretStoreFactory;
    };

    explicit DoctorRun(Options options, QObject *parent = nullptr);
    ~DoctorRun() override;

    void start();
    // Ctrl-C, or the window's Stop: end now with what was found (the report says so).
    void stop();
    const DoctorReport &report() const { return m_report; }
    // The session ids the run saw (its own and the probes'): what is written masks them.
    QStringList sessionIds() const { return m_sessionIds; }

Q_SIGNALS:
    void findingAdded(const Sonde::DoctorFinding &finding);
    // The run's session asks for authorization (the URL to open, for a front end to show).
    void authChanged(const Sonde::AuthState &state);
    void stepStarted(const QString &what);
    // The run's own traffic, in order: the transcript its findings' indexes point into.
    void transcriptBatch(const Sonde::TranscriptBatch &batch);
    void finished(const Sonde::DoctorReport &report);

private:
    using Step = std::function<void()>;
    using Answered = std::function<void(const CallOutcome &)>;

    void handleServerRequest(const ServerRequest &request) override;
    void onSession(const SessionSnapshot &s);
    void onTranscript(const TranscriptBatch &batch);
    void onCall(const CallOutcome &outcome);
    void call(const QString &method, const QJsonObject &params, int timeoutMs, Answered then,
              bool withProgress = false);
    void next();
    bool wanted(const QString &checkId) const;
    void add(DoctorFinding finding);
    void fail(const QString &checkId, const QString &message, const QByteArray &request = {},
              const QByteArray &response = {});
    // The same, with the request and answer of the call as evidence (from the transcript).
    // `sent` stands in for the request when the call never reached the wire with an id.
    void fail(const QString &checkId, const QString &message, const CallOutcome &outcome,
              const QByteArray &sent = {});
    // The call timed out although the server answered its id: the answer was not readable
    // JSON-RPC, which the envelope check says; the probe has nothing to add.
    bool answeredUnreadably(const CallOutcome &outcome) const;
    void ran(const QString &checkId);
    void skip(const QString &checkId, const QString &why);

    // The steps, in order.
    void planSteps();
    void stepPing();
    void stepUnknownMethod();
    void stepLists();
    void walkList(const QString &method, const QString &cursor, int page,
                  std::shared_ptr<QJsonArray> items, std::shared_ptr<QSet<QString>> cursors);
    void stepInvalidCursor();
    void takeShot(std::function<void(const StateShot &)> then);
    void stepBaseline();
    void stepTools();
    // One tool call with arguments from its schema; `then` runs when it is answered.
    void callOne(int index, std::function<void()> then);
    // The tools of one kind one at a time from `index`: the writes (--allow-writes), or the
    // read-only ones again between shots when the shot after all of them differed.
    void callTool(int index, bool writes, bool attributing);
    void startRawProbes();
    void awaitRawProbes();
    void rawProbesDone();
    void finish();
    void finalizeReport();

    Options m_options;
    std::unique_ptr<CoreHost> m_host;
    MessageLinter m_linter;
    QList<Step> m_steps;
    QHash<quint64, Answered> m_pending;
    QTimer *m_deadline = nullptr;
    QElapsedTimer m_clock;
    DoctorReport m_report;
    QStringList m_sessionIds;
    QSet<QString> m_ranActive;
    QMap<QString, QString> m_skipReasons;
    SessionSnapshot m_snapshot;
    bool m_http = false;
    bool m_rev20260728 = false;
    bool m_connected = false;
    bool m_finishing = false;
    bool m_stopped = false;
    bool m_unreadable = false; // a call timed out though its answer came: see onCall()
    bool m_rawStarted = false;
    bool m_rawDone = false;
    bool m_waitingForRaw = false;
    int m_transcriptIndex = 0;
    QHash<QString, QJsonArray> m_lists; // method -> every item of its walk
    // The run's recent requests and their answers by id, for a probe's evidence (bounded).
    struct Exchange
    {
        QByteArray request;
        QByteArray response;
        int responseIndex = -1;
    };
    QHash<QString, Exchange> m_exchanges;
    QJsonArray m_tools;
    StateShot m_shot;
    QSet<QString> m_volatile;
    QStringList m_unattributed; // what changed while every read-only tool ran
    std::unique_ptr<RawHttpProbes> m_httpProbes;
    std::unique_ptr<RawStdioProbes> m_stdioProbes;
};

} // namespace Sonde

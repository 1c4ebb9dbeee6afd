// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "recovery/calltrail.h"
#include "recovery/replaypolicy.h"
#include "values/callvalues.h"
#include "values/recoveryvalues.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <optional>

namespace Sonde {

class BreakerBookkeeper;
class Clock;
class ClockTimer;
class ReconnectController;
class ServerSession;
struct ServerProgress;

// The calls of one server while they are being recovered (docs/recovery.md §2, §3): each
// front-end call is an operation from the breaker's admission to its one answer. A failed
// call is classified; when its session died it waits, within one recovery budget, for a
// newer generation; then it is sent once more if the ReplayPolicy (or how it failed) allows,
// and otherwise answered "outcome uncertain". A call that arrives with nothing to send on
// waits for the reconnect and is sent then. Thread: the engine's; owned by the
// ServerSupervisor, which routes the session's answers here.
class CallRecoveryUnit : public QObject
{
    Q_OBJECT
public:
    static const QString ReconnectCommand; // "sonde/reconnect": a reconnect by hand, as a call

    CallRecoveryUnit(const ServerConfig &config, const Clock &clock, const ServerProgress &progress,
                     ServerSession &session, BreakerBookkeeper &breaker,
                     ReconnectController &reconnect, QObject *parent = nullptr);

    void call(const CallRequest &request);
    void cancel(quint64 ticket, const QString &reason);
    // Every answer of the session comes here: internal calls, operations, and the rest.
    void onSessionCallFinished(const CallOutcome &outcome);
    // A generation became ready: the operations waiting for a newer one go on.
    void sessionReady();
    // Answers every operation that is not on the wire (those get the session's answer).
    void stop();
    // A call of the supervisor's own (tools/list for annotations, ping): not an operation.
    void internalCall(const QString &method, int timeoutMs,
                      std::function<void(const CallOutcome &)> then);
    void setToolOverride(const QString &tool, std::optional<bool> readOnly);

Q_SIGNALS:
    void callFinished(const Sonde::CallOutcome &outcome);
    void recorded(const Sonde::HistoryEvent &event);
    // A verdict about one call (outcome-uncertain, sent-again, breaker-refused): a line of
    // the transcript, not of the server's history (whose printed form stays as it was).
    void verdictGiven(const Sonde::HistoryEvent &event);

private:
    enum class Step
    {
        Sent,              // on the wire: the session answers it
        WaitingToSend,     // nothing to send on yet: sent when the server is back
        WaitingForSession, // its session died under it: waits for a newer generation
        ReadingTools,      // the verdict needs the tool's annotations: tools/list first
        CheckingWithPing   // a timed-out write: a ping says whether the session lives
    };
    struct Operation
    {
        CallRequest request;
        Step step = Step::Sent;
        int attempts = 0;
        QList<int> generations;
        int waitAfterGeneration = 0; // resume when a generation newer than this is ready
        qint64 startedMs = 0;
        qint64 deadlineMs = 0; // the end of this action's recovery budget
        qint64 waitStartedMs = 0;
        qint64 waitedMs = 0;
        std::optional<qint64> expiredAtUs; // when the session-expiry verdict was reached
        ExpiryRule rule = ExpiryRule::None;
        Error firstError;
        bool probe = false; // the breaker's half-open probe
        bool replayed = false;
        // Decided: sent again once (replay), or never (the answer is "outcome uncertain").
        std::optional<ReplayVerdict> verdict;
        CallTrail trail; // what the verdict entries name

        bool neverReplayed() const { return verdict && !verdict->replay; }
        bool waiting() const { return step != Step::Sent; }
    };

    void dispatch(quint64 ticket);
    void onFailed(Operation &op, const CallOutcome &outcome);
    void explainTaskRequired(const CallOutcome &outcome);
    void onTimedOutToolCall(quint64 ticket, int generation);
    void handleExpired(quint64 ticket, const Error &error, ExpiryRule rule);
    void resume(quint64 ticket);
    void decideToolReplay(quint64 ticket);
    void withToolEntry(quint64 ticket, std::function<void(const QJsonObject &)> then);
    ReplayVerdict toolVerdict(const Operation &op, const QJsonObject &tool) const;
    void finish(quint64 ticket, CallOutcome outcome, CallRecovery answer = {});
    void finishUncertain(quint64 ticket, ReconnectOutcome reconnect);
    void checkBudgets();
    void spendBudget(quint64 ticket, const Operation &op);
    void armBudgetTimer();
    // `justRead`: the tools were read for this question (their ttlMs does not matter).
    QJsonObject toolEntry(const QString &name, bool justRead = false) const;
    void record(HistoryEvent::Body body) { Q_EMIT recorded({.body = std::move(body)}); }
    void announceReplay(Operation &op, const QJsonValue &newRequestId, int generation);

    const ServerConfig &m_config;
    const Clock &m_clock;
    const ServerProgress &m_progress;
    ServerSession &m_session;
    BreakerBookkeeper &m_breaker;
    ReconnectController &m_reconnect;
    ReplayPolicy m_replay;
    QHash<quint64, Operation> m_ops;
    QHash<quint64, std::function<void(const CallOutcome &)>> m_internal;
    quint64 m_nextInternal = quint64(1) << 60; // far from CoreHost's tickets
    ClockTimer *m_budgetTimer = nullptr;
};

} // namespace Sonde

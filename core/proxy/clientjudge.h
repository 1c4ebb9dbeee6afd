// SPDX-License-Identifier: MIT
#pragma once

#include "proxy/proxyfault.h"
#include "util/enumnames.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <map>

namespace Sonde {

class Clock;
class ClockTimer;

// A request the client sent, as the judge compares them: two requests are "the same call"
// when method, tool and arguments match (the id differs on every attempt).
struct ObservedRequest
{
    QString method;
    QString idKey;      // JsonRpcMessage::idKey; empty for a notification
    QString tool;       // tools/call: params.name
    QByteArray argsKey; // tools/call: params.arguments as compact JSON
    QString sessionId;  // HTTP: the Mcp-Session-Id it carried (empty on stdio)

    bool sameCallAs(const ObservedRequest &o) const
    {
        return method == o.method && tool == o.tool && argsKey == o.argsKey;
    }
};

// The judge's answer about one fault: how the client recovered, against docs/recovery.md.
struct ProxyVerdict
{
    enum class State
    {
        Armed,   // waiting for a message to act on
        Pending, // fired; the client has not shown what it does yet
        Pass,    // the client recovered as the contract says
        Fail,    // it did not: stuck on a dead session, a write sent twice, no resumption
        Note     // nothing to grade (it did nothing the fault called for); said as a fact
    };
    int faultId = 0;
    ProxyFault::Kind kind = ProxyFault::Kind::Clear;
    State state = State::Armed;
    QString summary;
    qint64 afterMs = -1; // from the fault acting to the reaction the verdict rests on

    bool known() const { return state != State::Armed && state != State::Pending; }
    static QString stateName(State s);
};

// Watches a proxied session and grades the client's recovery from each fault (issue 31;
// the rules are docs/proxy.md's "Verdicts", which cite docs/recovery.md):
// - expire-session: pass when the client initializes again (how long, how many requests it
//   sent on the dead session first); fail when the window ends with requests on the dead
//   session and no initialize (the 1.x TypeScript SDK client's behaviour).
// - drop-connection, cut-stream, drop-response, corrupt-response, delay: the same write
//   (tools/call of a tool not marked readOnlyHint, RFC 9110 §9.2.2) sent again fails: it may
//   have run twice; a read retried passes; a cut stream resumed with Last-Event-ID passes;
//   a request cancelled passes.
// - status: retrying is safe (the server never saw it) but not before Retry-After.
// - notify tools/list_changed: passes when the client lists the tools again.
// What the window (verdictWindowMs after the fault acted) ends without settles as the rule
// says. Timers run on the injected Clock. Thread: the proxy's.
class ClientJudge : public QObject
{
    Q_OBJECT
public:
    ClientJudge(const Clock &clock, qint64 verdictWindowMs, QObject *parent = nullptr);
    ~ClientJudge() override;

    // A fault the user armed: its id (1, 2, …), the key of everything below.
    int armed(const ProxyFault &fault);
    // What the fault acted on. `request`: the request it hit (empty for a fault that acts on
    // no request: expire-session, kill-server, notify); `lastEventId`: the last SSE event id
    // the client had received on the stream it cut; `detail` goes into the summary.
    void fired(int id, const ObservedRequest &request, const QString &lastEventId = {},
               const QString &detail = {});
    // A fault disarmed before it acted, or one that could not act (`why`: no session to
    // expire, no GET stream to carry a notification): a note.
    void disarmed(int id);
    void unable(int id, const QString &why);

    void clientRequest(const ObservedRequest &request);
    void clientCancelled(const QString &requestIdKey);
    void clientResumed(const QString &lastEventId); // an SSE GET with Last-Event-ID
    void clientEnded();                             // stdio: the client closed its input
    // The tools a tools/list answer named, with whether each is marked readOnlyHint: true.
    void toolsListed(const QHash<QString, bool> &readOnly);

    ProxyVerdict verdict(int id) const;
    QList<ProxyVerdict> verdicts() const;
    qint64 windowMs() const { return m_windowMs; }

Q_SIGNALS:
    // A verdict became known (Pass, Fail or Note); once per fault.
    void judged(const Sonde::ProxyVerdict &verdict);

private:
    struct Case
    {
        ProxyFault fault;
        ProxyVerdict verdict;
        ObservedRequest request;
        QString lastEventId;
        QString detail;
        qint64 firedMs = -1;
        qint64 refusedMs = -1; // expire-session: the first request answered 404
        int deadRequests = 0;  // expire-session: requests on the dead session
        ClockTimer *timer = nullptr;
    };
    bool isWrite(const ObservedRequest &r) const;
    void settle(Case &c, ProxyVerdict::State state, const QString &summary, qint64 atMs = -1);
    void windowEnded(int id);

    const Clock &m_clock;
    qint64 m_windowMs;
    int m_nextId = 1;
    std::map<int, Case> m_cases;
    QSet<QString> m_readOnlyTools;
    QSet<QString> m_knownTools;
};

// The states as the control socket, the history and the window write them.
template <> struct EnumNames<ProxyVerdict::State>
{
    static constexpr const char *const names[] = {"armed", "pending", "pass", "fail", "note"};
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::ProxyVerdict)

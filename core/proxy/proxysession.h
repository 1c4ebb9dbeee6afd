// SPDX-License-Identifier: MIT
#pragma once

#include "proxy/clientjudge.h"
#include "proxy/proxyfault.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace Sonde {

class Clock;

// One proxied client session as the relays and the control socket share it: the faults the
// user armed (each acts on the next `count` messages it applies to), what passes in either
// direction as far as judging needs it (the client's name, its requests, the tools a
// tools/list answer marked read-only), and the judge. The relays (StdioRelay,
// HttpReverseProxy) ask it which fault applies to a message and report what they did; the
// control socket arms faults and reads verdicts. Thread: the proxy's.
class ProxySession : public QObject
{
    Q_OBJECT
public:
    ProxySession(bool http, const Clock &clock, qint64 verdictWindowMs, QObject *parent = nullptr);
    ~ProxySession() override;

    bool http() const { return m_http; }
    const Clock &clock() const { return m_clock; }
    ClientJudge &judge() { return m_judge; }

    // Arms a fault: its id. Faults that act at once (expire-session, kill-server, notify)
    // are handed to the relay through actNow(); clear disarms every waiting fault.
    int arm(const ProxyFault &fault);
    // The earliest armed fault of `kind`, one of its `count` used up: its id and a copy; the
    // relay reports what it did with it through fired().
    std::optional<std::pair<int, ProxyFault>> take(ProxyFault::Kind kind);
    bool armedFor(ProxyFault::Kind kind) const;
    // What a fault acted on (ClientJudge::fired); the first action of a fault counts.
    void fired(int id, const ObservedRequest &request, const QString &lastEventId = {},
               const QString &detail = {});
    // A fault that could not act (no session to expire, no GET stream to carry a
    // notification): judged a note saying why.
    void failed(int id, const QString &why);

    // One JSON-RPC frame (a line, a body, an SSE event's data) from the client; `sessionId`
    // is the Mcp-Session-Id it came with. The requests it held, as the judge compares them.
    QList<ObservedRequest> clientFrame(const QByteArray &frame, const QString &sessionId = {});
    // One frame from the server (tools/list answers teach the judge which tools read).
    void serverFrame(const QByteArray &frame);
    // The request a response answers, when the client's request was seen.
    ObservedRequest requestFor(const QString &idKey) const { return m_open.value(idKey); }
    // The client's name from its initialize (clientInfo.name), once seen.
    QString clientName() const { return m_clientName; }
    int clientMessages() const { return m_clientMessages; }
    int serverMessages() const { return m_serverMessages; }

    // The `status` op's answer fields: transport, client, message counts, armed faults.
    QJsonObject status() const;

    // HTTP: a session id the server gave (or the client used). A new one is a new session
    // of the same client: its generation (1 for the first, and on stdio) goes up.
    void sessionIdSeen(const QByteArray &sessionId);
    int generation() const { return m_generation; }

Q_SIGNALS:
    void actNow(int id, const Sonde::ProxyFault &fault);
    // What passes, for a recording: each frame the judge saw (up to the relays' 4 MiB), and
    // each fault as it acts.
    void frameSeen(bool fromClient, const QByteArray &frame);
    void faultActed(int id, Sonde::ProxyFault::Kind kind, const QString &detail);

private:
    struct Armed
    {
        int id;
        ProxyFault fault;
        int left;
        bool acted = false;
    };

    bool m_http;
    const Clock &m_clock;
    ClientJudge m_judge;
    QList<Armed> m_armed;
    QHash<QString, ObservedRequest> m_open; // requests awaiting their answer, by id key
    QString m_clientName;
    int m_clientMessages = 0;
    int m_serverMessages = 0;
    QByteArray m_sessionId;
    int m_generation = 1;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/jsonrpcmessage.h"
#include "session/pendingrequests.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QObject>

#include <functional>
#include <optional>

namespace Sonde {

class Clock;
class ClockTimer;

// The requests a session has sent and waits on: their ids (never reused for the channel's
// lifetime), their deadlines with the one timer that watches them, and the continuation each
// answer goes to. It sends nothing: the session frames and sends, and decides what a timeout
// or a cancellation says on the wire. Thread: the owning session's.
class RequestChannel : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<void(const JsonRpcMessage &response, const Error &error)>;
    struct Taken
    {
        PendingRequests::Entry entry;
        Handler handler; // empty once a cancellation dropped it
    };

    explicit RequestChannel(const Clock &clock, QObject *parent = nullptr);

    // An id for a message that is no pending request (a stream the server ends).
    QJsonValue nextId() { return QJsonValue(m_nextId++); }
    // Registers a request about to be sent and returns its id.
    QJsonValue add(const QString &method, qint64 timeoutMs, qint64 maxTotalMs,
                   const QString &progressToken, Handler handler);
    // The request `id` answers (a response, or a failure the transport reports); nullopt for
    // an id that is not pending.
    std::optional<Taken> take(const QJsonValue &id);
    // Abandons a request: its late answer is then expected and ignored (wasRetired).
    std::optional<Taken> retire(const QJsonValue &id);
    bool wasRetired(const QJsonValue &id) const { return m_pending.wasRetired(id); }
    bool contains(const QJsonValue &id) const { return m_pending.contains(id); }
    // A progress notification restarts its request's timeout; false for an unknown token.
    bool touchProgress(const QString &token);
    QString progressTokenOf(const QJsonValue &id) const { return m_pending.progressTokenOf(id); }
    // Every request whose deadline has passed, taken out; the caller says why and calls back.
    QList<Taken> takeExpired();
    // Everything, taken out; the timer stops.
    QList<Taken> takeAll();
    // Back in, as it was (a request that outlives the transport it went out on).
    void restore(Taken taken);
    int size() const { return m_pending.size(); }

Q_SIGNALS:
    // The earliest deadline has come: the session calls takeExpired().
    void deadlinePassed();

private:
    void arm();

    const Clock &m_clock;
    PendingRequests m_pending;
    QHash<QString, Handler> m_handlers; // idKey -> continuation
    ClockTimer *m_timer = nullptr;
    qint64 m_armedForMs = 0; // the deadline the timer is armed for
    qint64 m_nextId = 1;
};

} // namespace Sonde

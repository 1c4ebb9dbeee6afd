// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/jsonrpcmessage.h"
#include "transcript/transcriptevent.h"
#include "values/callvalues.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <functional>

class QObject;

namespace Sonde {

class Clock;
class FaultInjectingTransport;
class ListCache;
class SessionEra;
struct Operation;
struct ServerConfig;

// The session as its parts see it: an era, the list cache, the listen stream and the task
// follower send through it, record through it, and reach the calls it carries. ServerSession
// is the one implementation; a fake revision in a test uses the same view. Thread: the
// session's.
class SessionHost
{
public:
    using Handler = std::function<void(const JsonRpcMessage &response, const Error &error)>;

    virtual ~SessionHost() = default;

    virtual const ServerConfig &config() const = 0;
    virtual const Clock &clock() const = 0;
    // The parent of the parts' timers, and the context of their deferred calls.
    virtual QObject *context() = 0;
    virtual bool isReady() const = 0;
    virtual int generation() const = 0;
    // What was said before now may have been missed: the calls that follow are a new
    // generation (docs/recovery.md §8).
    virtual void startGeneration() = 0;
    virtual QJsonObject clientCapabilities() const = 0;
    virtual QJsonObject serverCapabilities() const = 0;
    // Null between connections.
    virtual FaultInjectingTransport *transport() const = 0;
    // The era in use (before one is chosen: the one that adds nothing to a request).
    virtual SessionEra &era() = 0;
    virtual ListCache &lists() = 0;

    // A request with a deadline; `handler` gets its answer or its failure.
    virtual QJsonValue sendRequest(const QString &method, const QJsonObject &params, int timeoutMs,
                                   const QString &progressToken, Handler handler) = 0;
    // An id for a request that is no pending one (no deadline; its owner routes the answer).
    virtual QJsonValue nextId() = 0;
    virtual void sendFrame(const JsonRpcMessage &message) = 0;
    virtual void record(LifecycleDetails details) = 0;
    virtual void recordViolation(const QString &why, const QByteArray &raw = {}) = 0;
    virtual void publishSnapshot() = 0;

    // The call under `ticket`; null once it finished.
    virtual Operation *operation(quint64 ticket) = 0;
    virtual QJsonValue requestIdOf(quint64 ticket) const = 0;
    virtual void setRequestId(quint64 ticket, const QJsonValue &id) = 0;
    // Sends the call (again, from its first leg).
    virtual void dispatch(quint64 ticket) = 0;
    virtual void finish(quint64 ticket, QJsonValue result, Error error) = 0;
    // To the front end: a question for the user, a notification, a list read again.
    virtual void ask(const ServerRequest &request) = 0;
    virtual void notify(const ServerNotification &notification) = 0;
    virtual void announceList(const QString &method, const QJsonArray &items) = 0;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"
#include "protocol/jsonrpcmessage.h"
#include "values/callvalues.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

class SessionHost;
struct SessionSnapshot;

// What one protocol revision changes in a session once the era probe chose it
// (docs/protocol.md, "Choosing the era"): what a request carries, what the session answers
// itself, what a call's answer may ask for next, what runs beside the calls. The session
// asks its era at each of these points and nowhere asks which era it is in (kind() only
// names it to the front ends); a new revision is a new subclass, its ServerConfig::Era value,
// and a line in ServerSession::defaultEras(). This base is the session before an era is
// chosen: it adds nothing. Thread: the session's.
class SessionEra
{
public:
    explicit SessionEra(SessionHost &host) : m_host(host) {}
    virtual ~SessionEra() = default;
    SessionEra(const SessionEra &) = delete;
    SessionEra &operator=(const SessionEra &) = delete;

    // What Sonde says of itself to a server (clientInfo), in every era.
    static QJsonObject clientInfo();

    // Which era this is, as the snapshot carries it and the setting names it; none before the
    // choice.
    virtual std::optional<ServerConfig::Era> kind() const { return std::nullopt; }
    // The name the transcript gives the era ("initialize", "2026-07-28"): kind()'s, from
    // ServerConfig::eraName, the one table of era names; empty before the choice.
    QString name() const;
    // True for a protocol version this era speaks.
    virtual bool speaks(const QString &version) const
    {
        Q_UNUSED(version)
        return false;
    }
    // The versions server/discover may choose this era for, newest first (none for an era
    // the initialize handshake opens).
    virtual QStringList probedVersions() const { return {}; }
    // A new connection: what belonged to the last one goes; what the user set stays.
    virtual void reset() {}
    // Chosen for a connection that speaks `version`.
    virtual void adopt(const QString &version) { Q_UNUSED(version) }
    // The params a request goes out with.
    virtual QJsonObject requestParams(const QString &method, const QJsonObject &params)
    {
        Q_UNUSED(method)
        return params;
    }
    virtual void describe(SessionSnapshot &snapshot) const { Q_UNUSED(snapshot) }
    // The session is ready, or the server has described itself: start what runs beside the
    // calls (idempotent).
    virtual void connected() {}
    // Cancellation as a notifications/cancelled frame; false where ending the request's
    // stream is the cancellation.
    virtual bool cancelsWithNotification() const { return true; }

    // The routing points; each returns true when the era took the message.
    virtual bool takeResponse(const JsonRpcMessage &response)
    {
        Q_UNUSED(response)
        return false;
    }
    virtual bool takeRequestFailure(const QJsonValue &id, const Error &error)
    {
        Q_UNUSED(id)
        Q_UNUSED(error)
        return false;
    }
    virtual bool takeNotification(const JsonRpcMessage &notification)
    {
        Q_UNUSED(notification)
        return false;
    }
    virtual bool takeReply(const ServerReply &reply)
    {
        Q_UNUSED(reply)
        return false;
    }

    // Calls: one the era answers itself; an answer that is not the call's outcome yet (more
    // input asked for, a task, a refusal to send again); a cancellation the era carries out.
    virtual bool answerLocally(quint64 ticket)
    {
        Q_UNUSED(ticket)
        return false;
    }
    virtual bool continueCall(quint64 ticket, const JsonRpcMessage &response, const Error &error)
    {
        Q_UNUSED(ticket)
        Q_UNUSED(response)
        Q_UNUSED(error)
        return false;
    }
    virtual bool cancel(quint64 ticket, const QString &reason)
    {
        Q_UNUSED(ticket)
        Q_UNUSED(reason)
        return false;
    }
    // The call is over, or every call is (a lost connection): drop what followed it.
    virtual void finished(quint64 ticket) { Q_UNUSED(ticket) }
    virtual void clear() {}

    // Lists: a page read (its cache hints), and the tools a server listed, as kept.
    virtual void listRead(const QString &method, const QJsonObject &result)
    {
        Q_UNUSED(method)
        Q_UNUSED(result)
    }
    virtual QJsonArray acceptTools(const QJsonArray &tools) { return tools; }

protected:
    SessionHost &m_host;
};

} // namespace Sonde

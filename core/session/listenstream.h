// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/jsonrpcmessage.h"
#include "session/listensubscription.h"

#include <QJsonObject>
#include <QSet>
#include <QString>

namespace Sonde {

class ClockTimer;
class SessionHost;

// The 2026-07-28 subscriptions/listen stream of a session (basic/patterns/subscriptions.mdx):
// opened once the session is ready with what the server's capabilities and the user's
// resource subscriptions ask for, opened again after a drop (ListenSubscription says when),
// closed and reopened when the subscriptions change. A stream, not a call: its request has no
// deadline and its answer only ever ends it. Thread: the session's.
class ListenStream
{
public:
    explicit ListenStream(SessionHost &host);

    // Opens the stream unless one is open or there is nothing to hear.
    void open();
    void close();
    // A new connection: no stream is open on it.
    void reset();
    // The user's resource subscriptions; they outlive connections.
    void subscribe(const QString &uri) { m_resources.insert(uri); }
    void unsubscribe(const QString &uri) { m_resources.remove(uri); }

    bool isOpen() const { return !m_subscription.id().isUndefined(); }
    bool isStream(const QJsonValue &id) const { return m_subscription.isCurrent(id); }
    // The stream's own answer (an error, or the server ending it).
    void answered(const JsonRpcMessage &response);
    // The transport lost the stream without an answer.
    void failed(const Error &error);
    // A notification carrying a subscription id; false for one that does not.
    bool takeNotification(const JsonRpcMessage &message);
    const ListenStatus &status() const { return m_subscription.status(); }

private:
    void openNow();

    SessionHost &m_host;
    ListenSubscription m_subscription;
    ClockTimer *m_timer = nullptr;
    bool m_reopened = false; // the next acknowledgment is of a stream opened again
    QSet<QString> m_resources;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "values/lifecycledetails.h"

#include <QObject>
#include <QString>

namespace Sonde {

// The state of Streamable HTTP's optional GET stream, on which a server sends messages that
// belong to no POST: not offered (404/405), open, refused for the session (it worked, and now
// 400/404: the session is gone), failed, or reconnecting after the server's `retry:` delay
// (backoff on repeated failures) with the last event id for Last-Event-ID. The transport
// owns the reply and feeds this what happened to it. Thread: the engine's; owned by its
// StreamableHttpTransport. Emits reopenDue when a reconnect delay is over.
class GetStream : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        NotOpened,
        Connecting,
        Open,
        Reconnecting,
        NotOffered, // the server answered 404 or 405: it has no such stream
        Failed,     // another error status: given up
        Refused,    // it worked for this session and is refused now
    };
    // What the transport does after the stream's reply finished.
    enum class Verdict
    {
        SessionLost, // emit connectionLost
        GivenUp,     // nothing more: no stream
        Reopening,   // reopenDue follows
    };

    using QObject::QObject;

    State state() const { return m_state; }
    // For the session snapshot ("get_stream").
    QString describe() const;
    QString lastEventId() const { return m_lastEventId; }
    void setLastEventId(const QString &id) { m_lastEventId = id; }

    void connecting() { m_state = State::Connecting; }
    // The reply's headers said SSE: what the transcript line says.
    LifecycleDetails::GetStreamOpen opened();
    // The reply ended with this status (0: no answer). `sessionIdSent` was on the GET;
    // `retryMs` is the server's retry: field (negative: none); `details` gets what the
    // transcript line says (its kind too).
    Verdict finished(int status, bool sessionIdSent, int retryMs, LifecycleDetails *details,
                     const QString &errorText);

Q_SIGNALS:
    void reopenDue();

private:
    State m_state = State::NotOpened;
    int m_status = 0;
    int m_failures = 0;
    bool m_wasOpen = false;
    QString m_lastEventId;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>

namespace Sonde {

// The client's side of one subscriptions/listen stream (basic/patterns/subscriptions.mdx):
// the filter asked for (from the server's capabilities and the resources the user
// subscribed to), what the server granted, and where the stream stands. It says when to
// open again after a drop (1 s, doubling to 30 s; reset by an acknowledgment). Pure
// bookkeeping; the session sends and routes. Thread: the owning session's.
class ListenSubscription
{
public:
    enum class State
    {
        None,         // nothing to listen for (no listChanged, no subscription)
        Open,         // sent, not acknowledged yet
        Acknowledged, // the server said what it grants
        Ended,        // the server closed it gracefully (a complete result)
        Dropped,      // the stream broke without an answer: opened again after a delay
        Refused       // the server refused it (an error): not retried
    };

    // The filter for a server with these capabilities; empty when there is nothing to hear.
    static QJsonObject filterFor(const QJsonObject &serverCapabilities,
                                 const QSet<QString> &resourceUris);

    void opened(const QJsonValue &id, const QJsonObject &requested);
    void acknowledged(const QJsonObject &granted);
    // Returns the delay before opening again.
    int dropped(const QString &reason);
    void ended(State how, const QString &reason = {});
    void reset();

    State state() const { return m_state; }
    QJsonValue id() const { return m_id; }
    bool isCurrent(const QJsonValue &subscriptionId) const;
    QJsonObject requested() const { return m_requested; }
    QJsonObject granted() const { return m_granted; }
    // What was asked for and not granted, in words ("promptsListChanged"), for the snapshot.
    QStringList notGranted() const;
    QJsonObject toJson() const;

    static QString stateName(State state);

private:
    State m_state = State::None;
    QJsonValue m_id = QJsonValue(QJsonValue::Undefined); // none open
    QJsonObject m_requested;
    QJsonObject m_granted;
    QString m_reason;
    int m_nextDelayMs = 1000;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "values/sessionvalues.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>

namespace Sonde {

// The client's side of one subscriptions/listen stream (basic/patterns/subscriptions.mdx):
// the filter asked for (from the server's capabilities and the resources the user
// subscribed to), what the server granted, and where the stream stands (a ListenStatus, the
// value the snapshot carries). It says when to open again after a drop (1 s, doubling to
// 30 s; reset by an acknowledgment). Pure bookkeeping; the session sends and routes. Thread:
// the owning session's.
class ListenSubscription
{
public:
    // The filter for a server with these capabilities; empty when there is nothing to hear.
    static QJsonObject filterFor(const QJsonObject &serverCapabilities,
                                 const QSet<QString> &resourceUris);

    void opened(const QJsonValue &id, const QJsonObject &requested);
    void acknowledged(const QJsonObject &granted);
    // Returns the delay before opening again.
    int dropped(const QString &reason);
    void ended(ListenStatus::State how, const QString &reason = {});
    void reset();

    ListenStatus::State state() const { return m_status.state; }
    QJsonValue id() const { return m_status.id; }
    bool isCurrent(const QJsonValue &subscriptionId) const;
    const ListenStatus &status() const { return m_status; }

private:
    ListenStatus m_status;
    int m_nextDelayMs = 1000;
};

} // namespace Sonde

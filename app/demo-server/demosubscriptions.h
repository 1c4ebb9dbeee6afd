// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QStringList>

namespace Sonde {

// The open subscriptions/listen requests of one demo server, each with the filter it was
// granted: who hears a change. The server sends; this only remembers and matches. A
// subscription is named by its listen request's JSON-RPC id. Not thread-safe; the demo
// server's thread.
class DemoSubscriptions
{
public:
    // The part of a requested filter the server honours: the list-changed flags asked for
    // as true, and the asked-for resource URIs among `knownUris`. Nothing else.
    static QJsonObject grant(const QJsonObject &requested, const QStringList &knownUris);

    void add(const QJsonValue &id, const QJsonObject &granted);
    bool remove(const QJsonValue &id);
    bool contains(const QJsonValue &id) const;
    // The subscriptions that asked for this notification (for resources/updated: this URI).
    QList<QJsonValue> listenersFor(const QString &notificationMethod,
                                   const QString &uri = {}) const;
    QList<QJsonValue> all() const;

private:
    struct Entry
    {
        QJsonValue id;
        QJsonObject granted;
    };
    QList<Entry> m_entries; // in the order they were opened
};

} // namespace Sonde

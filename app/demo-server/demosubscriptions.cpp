// SPDX-License-Identifier: MIT
#include "demosubscriptions.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

static const QLatin1StringView ListFlags[] = {"toolsListChanged"_L1, "promptsListChanged"_L1,
                                              "resourcesListChanged"_L1};

QJsonObject DemoSubscriptions::grant(const QJsonObject &requested, const QStringList &knownUris)
{
    QJsonObject granted;
    for (const QLatin1StringView flag : ListFlags)
        if (requested.value(flag).toBool())
            granted.insert(flag, true);
    if (requested.contains("resourceSubscriptions"_L1)) {
        QJsonArray uris;
        for (const QJsonValue &uri : requested.value("resourceSubscriptions"_L1).toArray())
            if (knownUris.contains(uri.toString()) && !uris.contains(uri))
                uris.append(uri);
        granted.insert("resourceSubscriptions"_L1, uris);
    }
    return granted;
}

void DemoSubscriptions::add(const QJsonValue &id, const QJsonObject &granted)
{
    remove(id);
    m_entries.append({id, granted});
}

bool DemoSubscriptions::remove(const QJsonValue &id)
{
    return m_entries.removeIf([&](const Entry &e) { return e.id == id; }) > 0;
}

bool DemoSubscriptions::contains(const QJsonValue &id) const
{
    return std::any_of(m_entries.cbegin(), m_entries.cend(),
                       [&](const Entry &e) { return e.id == id; });
}

QList<QJsonValue> DemoSubscriptions::listenersFor(const QString &notificationMethod,
                                                  const QString &uri) const
{
    QLatin1StringView flag;
    if (notificationMethod == "notifications/tools/list_changed"_L1)
        flag = ListFlags[0];
    else if (notificationMethod == "notifications/prompts/list_changed"_L1)
        flag = ListFlags[1];
    else if (notificationMethod == "notifications/resources/list_changed"_L1)
        flag = ListFlags[2];
    QList<QJsonValue> ids;
    for (const Entry &e : m_entries) {
        const bool wants =
            flag.isEmpty() ? notificationMethod == "notifications/resources/updated"_L1 &&
                                 e.granted.value("resourceSubscriptions"_L1).toArray().contains(uri)
                           : e.granted.value(flag).toBool();
        if (wants)
            ids.append(e.id);
    }
    return ids;
}

QList<QJsonValue> DemoSubscriptions::all() const
{
    QList<QJsonValue> ids;
    for (const Entry &e : m_entries)
        ids.append(e.id);
    return ids;
}

} // namespace Sonde

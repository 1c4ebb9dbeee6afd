// SPDX-License-Identifier: MIT
#include "stateshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QJsonValue stripped(const QJsonValue &v)
{
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue &item : v.toArray())
            a.append(stripped(item));
        return a;
    }
    if (!v.isObject())
        return v;
    QJsonObject o = v.toObject();
    for (const char *key : {"_meta", "nextCursor", "ttlMs", "cacheScope", "pages"})
        o.remove(QLatin1String(key));
    for (auto it = o.begin(); it != o.end(); ++it)
        *it = stripped(*it);
    return o;
}

} // namespace

void StateShot::add(const QString &key, const QJsonValue &value)
{
    const QJsonValue s = stripped(value);
    m_items.insert(key, s.isArray() ? QJsonDocument(s.toArray()).toJson(QJsonDocument::Compact)
                        : s.isObject()
                            ? QJsonDocument(s.toObject()).toJson(QJsonDocument::Compact)
                            : QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact));
}

QStringList StateShot::differences(const StateShot &before, const StateShot &after,
                                   const QSet<QString> &ignored)
{
    // Only what both shots read: a list or read that failed or timed out in one of them
    // says nothing about the server's state (a new resource shows in resources/list).
    QStringList out;
    for (auto it = before.m_items.cbegin(); it != before.m_items.cend(); ++it)
        if (!ignored.contains(it.key()) && after.m_items.contains(it.key()) &&
            after.m_items.value(it.key()) != it.value())
            out << it.key();
    return out;
}

QSet<QString> StateShot::volatileKeys(const StateShot &first, const StateShot &second)
{
    const QStringList d = differences(first, second);
    return QSet<QString>(d.cbegin(), d.cend());
}

} // namespace Sonde

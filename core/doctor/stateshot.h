// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Sonde {

// What a server shows a client at one moment: each list (tools, prompts, resources,
// templates) and the contents of each resource read, as canonical JSON, keyed "tools/list",
// "resource note://a"... Taken before and after a tool that says it is read-only, the two
// must be equal: a difference is that tool's doing (tools.read-only-changed-state). What
// differs between two shots taken back to back, with nothing called between them, is the
// server's own motion (a clock, a counter): volatileKeys() finds it, so it is never blamed
// on a tool. A value; any thread.
class StateShot
{
public:
    // `value` as canonical JSON: keys sorted (QJsonObject keeps them so), without what a
    // server may change on any answer (_meta, nextCursor, the 2026-07-28 cache hints).
    void add(const QString &key, const QJsonValue &value);
    bool isEmpty() const { return m_items.isEmpty(); }
    QStringList keys() const { return m_items.keys(); }
    QByteArray value(const QString &key) const { return m_items.value(key); }

    // The keys both shots have whose values differ.
    static QStringList differences(const StateShot &before, const StateShot &after,
                                   const QSet<QString> &ignored = {});
    static QSet<QString> volatileKeys(const StateShot &first, const StateShot &second);

private:
    QMap<QString, QByteArray> m_items;
};

} // namespace Sonde

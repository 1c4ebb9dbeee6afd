// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace Sonde {

// The MCP session ids as the history keeps them: each one, wherever it appears in a record,
// becomes "sid:" and 16 hex digits of HMAC-SHA256 under a key drawn at random for the
// recording run and never written anywhere. Within a run the same id reads the same, so an
// export or a trace still tells two sessions apart (the history groups sessions by run,
// server and generation, which needs no id); and the file alone cannot confirm a guessed id,
// not even a short counter, as an unkeyed hash could. The ids are learned from the records
// that carry them (Mcp-Session-Id headers, transport details: ExportReader::addSessionIds),
// before anything else touches the record. A value; the store's thread.
class SessionIdMask
{
public:
    // The most ids remembered (a reconnect brings a new one); the oldest go first.
    static constexpr int MaxIds = 64;

    SessionIdMask();
    // Remembers the session ids `record` holds.
    void learn(const QJsonObject &record);
    // `json` (a compact record) with every remembered id replaced by its mask.
    QByteArray apply(QByteArray json) const;
    QString masked(const QString &id) const;
    bool isEmpty() const { return m_ids.isEmpty(); }

private:
    QByteArray m_key;
    QList<QPair<QByteArray, QByteArray>> m_ids; // the id as JSON writes it -> its mask
};

} // namespace Sonde

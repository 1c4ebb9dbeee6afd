// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

class QIODevice;

namespace Sonde {

// Reads what the official MCP Inspector (2.x web client) writes when the user exports a log:
// its Protocol history (`inspector-protocol-<server>-<time>.json`, also "-pinned" and
// "-unpinned"), its Logs (notifications/message) and its Console (the server's stderr). Each
// is one JSON array, written whole by JSON.stringify; they become Sonde transcript records
// (TranscriptEvent::toJson's shape: "t", "t_ms", "server", "gen", "dir", "msg" | "line" |
// "event" + "raw"), in time order, all in generation 1 (the Inspector keeps one connection's
// log and clears it on disconnect). The network export holds HTTP requests, not messages, and
// is refused with a message saying so. Pure: no store, no thread of its own.
class InspectorExportReader
{
public:
    static constexpr qint64 DefaultMaxBytes = qint64(256) * 1024 * 1024;

    enum class Kind
    {
        Unknown,
        Protocol,
        Logs,
        Console,
        Network
    };

    struct Result
    {
        Kind kind = Kind::Unknown;
        QList<QJsonObject> records;
        QString error; // set, with no records, when the file is not an export Sonde reads
    };

    // The whole device, at most `maxBytes` of it (a larger one is refused, naming the limit).
    // `server` names the records' server; empty: "inspector" (serverFromFileName() finds the
    // one the Inspector put in the file's name).
    static Result read(QIODevice &in, const QString &server, qint64 maxBytes = DefaultMaxBytes);
    static Result fromJson(const QByteArray &json, const QString &server);
    // What the export of one entry looks like (for a sniffer that has read the start).
    static Kind kindOf(const QJsonObject &entry);
    // "demo" from "inspector-protocol-demo-2026-08-19T15-02-09.412Z.json" (the server id is
    // percent-encoded there); empty when the name is not the Inspector's.
    static QString serverFromFileName(const QString &fileName);
};

} // namespace Sonde

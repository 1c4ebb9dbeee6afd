// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "sessionidmask.h"
#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <memory>
#include <utility>
#include <variant>

namespace Sonde {

struct ServerConfig;

// The recorded history in one SQLite file (QSQLITE, WAL): every transcript event of every
// server, redacted before it reaches the disk, in one transaction per batch, so a process
// killed mid-flood loses at most the batch it was writing and leaves the file whole. Read
// with filters, a page at a time, and searched with FTS5 (docs/history.md). One connection of
// its own; a store is used on the thread that opened it (QSqlDatabase's rule).
class HistoryStore
{
public:
    struct Session
    {
        qint64 id = 0;
        QString server;
        int generation = 0;
        qint64 startedMs = 0, endedMs = 0, events = 0;
        QString era, protocolVersion;
    };

    HistoryStore();
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    // Opens (creating or migrating) the database. `source` names the run that records
    // ("window", "sonde-cli", "import FILE"); a store that only reads passes an empty one and
    // starts no run.
    bool open(const QString &path, QString *error, const QString &source = {});
    bool isOpen() const { return m_db.isOpen(); }
    // SQLite's page cache for this connection (its default is 2,000 KiB): a writer that only
    // appends needs little of it, and a process that lives beside a client (the proxy) keeps
    // its memory small.
    void setPageCacheKiB(int kib);
    int pageCacheKiB() const;
    // Requests awaiting their answers, and the entries of their oldest-first list (answered
    // ones are swept out once they are half of it).
    qsizetype pendingRequests() const { return m_pending.size(); }
    qsizetype pendingOrderEntries() const { return m_pendingOrder.size(); }
    QString path() const { return m_path; }
    bool hasFullText() const { return m_fts; }

    void setRedactSecrets(bool redact) { m_redact = redact; }
    void addSecrets(const ServerConfig &config) { m_redactor.addSecrets(config); }
    // The server's events are kept without their payloads (method, id and size only).
    void setPayloadsRecorded(const QString &server, bool recorded);
    // Off: every event goes through its record object (TranscriptEvent::toJson), as before
    // WireFrameRecord; the rows are the same either way (tst_wireframerecord), only slower.
    // For that test and the benchmark's column beside it.
    void setFramesReadDirectly(bool on) { m_readFrames = on; }

    // One transaction; false with the reason (nothing of the batch is kept then).
    bool append(const TranscriptBatch &batch, QString *error);
    // Records as they were written (TranscriptEvent::toJson's shape), for imports.
    bool appendRecords(const QList<QJsonObject> &records, QString *error);
    // An imported line: the wire event a record of today's shape holds
    // (WireFrameRecord::eventOfRecordLine: not parsed), or any other record, parsed. The rows
    // are the ones appendRecords makes of the parsed lines (tst_wireframerecord).
    using ImportedLine = std::variant<TranscriptEvent, QJsonObject>;
    bool appendImported(const QList<ImportedLine> &lines, QString *error);

    qint64 count(const HistoryFilter &filter) const;
    // How many events match and the id of the newest (0 if none), in one read: a view that
    // follows a recording asks this with HistoryFilter::afterId at newestId, the newest id of
    // every row, matched or not (so a filter that matches nothing is not counted again from
    // the start; it goes down after a Clear, when ids start again).
    struct Tally
    {
        qint64 count = 0, lastId = 0, newestId = 0;
        bool stopped = false; // pagedTally's `stop` said so: the rest is partial
    };
    Tally tally(const HistoryFilter &filter) const;
    // The same tally, and in the same read the id of each row whose number, counted from
    // `firstRow`, is a multiple of `pageSize`: the first row of every page, so that a reader
    // seeks any page by id (HistoryFilter::afterId) instead of walking every row before it
    // with OFFSET (half a second to the middle of a million rows). It steps through the ids
    // where tally() counts inside SQLite: for a reader's own thread, or for a few new rows.
    // `stop`, if given, is asked every StopCheckRows rows: true ends the count there (a newer
    // filter was asked, the file is being let go), in a few milliseconds instead of the
    // second a million rows take.
    static constexpr int StopCheckRows = 4'096;
    Tally pagedTally(const HistoryFilter &filter, int pageSize, qint64 firstRow,
                     QList<qint64> *pageStarts, const std::function<bool()> &stop = {}) const;
    // The run this store records into (0 for a store that only reads).
    qint64 runId() const { return m_run; }
    // `ids`, if given, gets each record's id (for a reader that pages on by id: OFFSET walks
    // every row before it, an id bound seeks).
    QList<QJsonObject> records(const HistoryFilter &filter, qint64 offset, int limit,
                               QList<qint64> *ids = nullptr) const;
    // The newest `limit` records (with HistoryFilter::untilId: up to that id), oldest first:
    // the end of a long filter without walking every row before it as OFFSET does.
    QList<QJsonObject> newestRecords(const HistoryFilter &filter, int limit,
                                     QList<qint64> *ids = nullptr) const;
    QList<Session> sessions(const QString &server = {}) const;
    QStringList servers() const;
    // The bytes of the records kept (what RetentionPolicy::maxBytes counts).
    qint64 recordBytes() const;

    // Deletes what the policy does not keep; `nowMs` on the caller's clock. Returns how
    // many events went, -1 on an error.
    qint64 applyRetention(const RetentionPolicy &policy, qint64 nowMs, QString *error);
    bool clear(QString *error);
    QString lastError() const { return m_lastError; }

    // A snapshot is one read transaction: until endSnapshot(), every read of this store sees
    // the rows as they were when it began, whatever another connection records or deletes
    // meanwhile (WAL keeps the pages it reads). An export holds one over all of its passes,
    // so that retention deleting the oldest rows of the run being exported cannot make a
    // header's count differ from the lines after it. For a store that only reads (one that
    // records begins its own transactions). While one is held the WAL cannot start again
    // from its beginning, so it grows by what is recorded meanwhile. False with the reason.
    bool beginSnapshot(QString *error);
    void endSnapshot();
    bool holdsSnapshot() const { return m_snapshot; }

    // How many requests the store remembers the method of until their response comes (the
    // oldest is forgotten first; a response to one forgotten is looked up in the table).
    static constexpr int MaxPendingRequests = 4096;

private:
    // The records (and their ids, when asked) the filter selects, in the order `order` (the
    // SQL after WHERE: ORDER BY and LIMIT) gives, with `orderBinds` its values.
    QList<QJsonObject> selectRecords(const HistoryFilter &filter, const QString &order,
                                     const QVariantList &orderBinds, QList<qint64> *ids) const;
    struct Row;
    struct Statements;
    struct PendingRequest
    {
        QString method, tool;
        quint64 serial = 0;
    };
    bool insert(const QList<Row> &rows, QString *error);
    bool insertOnce(const QList<Row> &rows, QString *error);
    qint64 sessionFor(const Row &row, QString *error);
    QString where(const HistoryFilter &filter, QVariantList *binds) const;
    Row rowOf(QJsonObject record);
    Row rowOfEvent(const TranscriptEvent &event);
    // False with the reason for a store opened to read only (no run).
    bool writable(QString *error) const;
    bool prepareStatements(QString *error);
    // m_db opened on m_path with the settings every connection of the store gets.
    bool connectDatabase(QString *error);
    // The connection closed and opened again (after a big record, insertOnce).
    bool reconnect(QString *error);
    // After a record larger than this the connection is made anew (insertOnce).
    static constexpr qsizetype BigRecordBytes = 1024 * 1024;
    // The method and tool a row is stored with: a response gets its request's.
    void pairWithRequest(const Row &row, qint64 session, QString *method, QString *tool);
    void rememberRequest(const QString &key, const QString &method, const QString &tool);

    QSqlDatabase m_db;
    std::unique_ptr<Statements> m_statements; // prepared on a write, kept while rows are small
    QString m_connection, m_path;
    bool m_fts = false;
    int m_pageCacheKiB = 0; // set by setPageCacheKiB, kept for a new connection
    bool m_redact = true;
    bool m_readFrames = true;
    bool m_snapshot = false;
    Redactor m_redactor;
    // MCP session ids are never written as they are (docs/history.md).
    SessionIdMask m_sessionIdMask;
    qint64 m_run = 0;
    using SessionKey = std::pair<QString, int>; // server, generation
    QHash<SessionKey, qint64> m_sessionIds;     // of this run
    QSet<QString> m_noPayloads;
    // Requests of this run not answered yet, by "server\ngen\ndir\nid": a response row gets
    // its request's method and tool, so a method filter finds both legs.
    QHash<QString, PendingRequest> m_pending;
    QList<QPair<QString, quint64>> m_pendingOrder; // oldest first
    quint64 m_pendingSerial = 0;
    mutable QString m_lastError;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "historystore.h"
#include "protocol/jsonrpcmessage.h"

#include "config/serverconfig.h"
#include "historyschema.h"
#include "wireframerecord.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <vector>

using namespace Qt::StringLiterals;

namespace Sonde {

// One event as the tables keep it.
struct HistoryStore::Row
{
    qint64 tMs = 0;
    QString server, dir, method, tool, requestId, era, protocolVersion;
    int gen = 0;
    bool isError = false;
    bool isMessage = false, isResponse = false;
    QByteArray record;
};

// The statements every batch runs, prepared once per connection.
struct HistoryStore::Statements
{
    explicit Statements(const QSqlDatabase &db)
        : insertEvent(db), indexText(db), touchSession(db), findRequest(db)
    {
    }
    QSqlQuery insertEvent, indexText, touchSession, findRequest;
};

namespace {

// A null QString binds as NULL; the columns want ''.
QString text(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

// A LIKE pattern (ESCAPE '\\') matching any text that holds `part` as it is.
QString likeContaining(QString part)
{
    part.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
    return u'%' + part + u'%';
}

QString sqlError(const QSqlQuery &q)
{
    return u"history: "_s + q.lastError().text();
}

} // namespace

HistoryStore::HistoryStore()
{
    static std::atomic<int> next{0};
    m_connection = u"sonde-history-%1"_s.arg(next++);
}

HistoryStore::~HistoryStore()
{
    m_statements.reset(); // its queries hold the connection
    endSnapshot();
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

void HistoryStore::setPageCacheKiB(int kib)
{
    m_pageCacheKiB = kib;
    QSqlQuery q(m_db);
    q.exec(u"PRAGMA cache_size=-%1"_s.arg(kib));
}

int HistoryStore::pageCacheKiB() const
{
    QSqlQuery q(m_db);
    // Negative: KiB; positive: pages (SQLite's two ways of saying it).
    if (!q.exec(u"PRAGMA cache_size"_s) || !q.next())
        return -1;
    const int v = q.value(0).toInt();
    return v < 0 ? -v : v * 4;
}

bool HistoryStore::open(const QString &path, QString *error, const QString &source)
{
    if (!QSqlDatabase::isDriverAvailable(u"QSQLITE"_s)) {
        *error = u"history: Qt's SQLite driver (QSQLITE) is not installed (Debian: "
                 u"libqt6sql6-sqlite)"_s;
        return false;
    }
    m_path = path;
    if (!connectDatabase(error))
        return false;
    if (!HistorySchema::migrate(m_db, error))
        return false;
    QSqlQuery fts(m_db);
    m_fts = fts.exec(u"SELECT 1 FROM sqlite_master WHERE name = 'events_fts'"_s) && fts.next();
    if (!source.isEmpty()) {
        QSqlQuery run(m_db);
        run.prepare(u"INSERT INTO runs (started_ms, source) VALUES (?, ?)"_s);
        run.addBindValue(QDateTime::currentMSecsSinceEpoch());
        run.addBindValue(source);
        if (!run.exec()) {
            *error = u"history: cannot write to %1: %2"_s.arg(path, run.lastError().text());
            return false;
        }
        m_run = run.lastInsertId().toLongLong();
    }
    return true;
}

bool HistoryStore::connectDatabase(QString *error)
{
    const QString &path = m_path;
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connection);
    m_db.setDatabaseName(path);
    // A writer that holds the lock for a batch makes a reader wait, not fail.
    m_db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
    if (!m_db.open()) {
        *error = u"history: cannot open %1: %2"_s.arg(path, m_db.lastError().text());
        return false;
    }
    QSqlQuery q(m_db);
    // WAL: readers (the window's views) never block the writer; NORMAL: a commit is durable
    // against a killed process (the WAL is in the OS), not against a power cut, which costs
    // one fsync per batch less.
    if (!q.exec(u"PRAGMA journal_mode=WAL"_s) || !q.next()) {
        *error =
            u"history: %1 is not a database Sonde can use: %2"_s.arg(path, q.lastError().text());
        return false;
    }
    if (q.value(0).toString().compare("wal"_L1, Qt::CaseInsensitive) != 0) {
        *error = u"history: %1 cannot be put in WAL mode (%2)"_s.arg(path, q.value(0).toString());
        return false;
    }
    q.exec(u"PRAGMA synchronous=NORMAL"_s);
    q.exec(u"PRAGMA foreign_keys=ON"_s);
    if (m_pageCacheKiB > 0)
        setPageCacheKiB(m_pageCacheKiB);
    return true;
}

bool HistoryStore::reconnect(QString *error)
{
    m_statements.reset(); // its queries hold the connection
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
    return connectDatabase(error);
}

void HistoryStore::setPayloadsRecorded(const QString &server, bool recorded)
{
    if (recorded)
        m_noPayloads.remove(server);
    else
        m_noPayloads.insert(server);
}

HistoryStore::Row HistoryStore::rowOfEvent(const TranscriptEvent &e)
{
    // Most frames are read off their bytes (WireFrameRecord); the rest, and every frame of a
    // server recorded without payloads, go through the record object.
    std::optional<WireFrameRecord> wire;
    if (m_readFrames && !m_noPayloads.contains(e.server))
        wire = WireFrameRecord::read(e, m_redact ? &m_redactor : nullptr);
    if (!wire)
        return rowOf(e.toJson());
    Row row;
    row.tMs = e.timeMs;
    row.server = e.server;
    row.gen = e.generation;
    static const QString send = u"send"_s, recv = u"recv"_s;
    row.dir = e.direction == TranscriptEvent::Direction::Outgoing ? send : recv;
    row.method = std::move(wire->method);
    row.tool = std::move(wire->tool);
    row.requestId = std::move(wire->requestId);
    row.protocolVersion = std::move(wire->protocolVersion);
    row.isError = wire->isError;
    row.isMessage = true;
    row.isResponse = wire->isResponse;
    row.record = m_sessionIdMask.apply(std::move(wire->record));
    return row;
}

bool HistoryStore::writable(QString *error) const
{
    if (m_run == 0)
        *error = u"history: the store was opened to read only"_s;
    return m_run != 0;
}

bool HistoryStore::append(const TranscriptBatch &batch, QString *error)
{
    if (!writable(error))
        return false;
    QList<Row> rows;
    rows.reserve(batch.size());
    for (const TranscriptEvent &e : batch)
        rows.append(rowOfEvent(e));
    return insert(rows, error);
}

bool HistoryStore::appendImported(const QList<ImportedLine> &lines, QString *error)
{
    if (!writable(error))
        return false;
    QList<Row> rows;
    rows.reserve(lines.size());
    for (const ImportedLine &line : lines) {
        const auto *e = std::get_if<TranscriptEvent>(&line);
        rows.append(e ? rowOfEvent(*e) : rowOf(std::get<QJsonObject>(line)));
    }
    return insert(rows, error);
}

bool HistoryStore::appendRecords(const QList<QJsonObject> &records, QString *error)
{
    if (!writable(error))
        return false;
    QList<Row> rows;
    rows.reserve(records.size());
    for (const QJsonObject &record : records)
        rows.append(rowOf(record));
    return insert(rows, error);
}

HistoryStore::Row HistoryStore::rowOf(QJsonObject record)
{
    const QString server = record.value("server"_L1).toString();
    // Before the redactor: it may mask the places the ids are learned from.
    m_sessionIdMask.learn(record);
    // apply() keeps a record with nothing to mask as it is (Redactor::mayHoldSecret).
    if (m_redact)
        record = m_redactor.apply(record);
    Row row;
    row.tMs = record.value("t_ms"_L1).toInteger();
    row.server = server;
    row.gen = record.value("gen"_L1).toInt();
    row.dir = record.value("dir"_L1).toString();
    const QJsonObject msg = record.value("msg"_L1).toObject();
    if (!msg.isEmpty()) {
        row.method = msg.value("method"_L1).toString();
        row.requestId = JsonRpcMessage::idText(msg.value("id"_L1));
        const QJsonObject params = msg.value("params"_L1).toObject();
        if (row.method == "tools/call"_L1 || row.method == "prompts/get"_L1)
            row.tool = params.value("name"_L1).toString();
        else if (row.method == "resources/read"_L1)
            row.tool = params.value("uri"_L1).toString();
        const QJsonObject result = msg.value("result"_L1).toObject();
        row.isError = msg.contains("error"_L1) || result.value("isError"_L1).toBool();
        if (result.contains("protocolVersion"_L1))
            row.protocolVersion = result.value("protocolVersion"_L1).toString();
        if (m_noPayloads.contains(server)) {
            QJsonObject kept{{"jsonrpc"_L1, msg.value("jsonrpc"_L1)}};
            for (const auto key : {"id"_L1, "method"_L1})
                if (msg.contains(key))
                    kept.insert(key, msg.value(key));
            record.insert("msg"_L1, kept);
            record.insert("payload_omitted"_L1, true);
        }
    } else {
        row.method = record.value("event"_L1).toString();
        const QJsonObject details = record.value("details"_L1).toObject();
        row.era = details.value("era"_L1).toString();
        // The lifecycle events say protocol_version (ready, era-chosen); protocolVersion is
        // the initialize result's spelling, which an imported record may use.
        row.protocolVersion = details.value("protocol_version"_L1)
                                  .toString(details.value("protocolVersion"_L1).toString());
        if (m_noPayloads.contains(server) && record.contains("line"_L1)) {
            record.remove("line"_L1);
            record.insert("payload_omitted"_L1, true);
        }
    }
    row.record = m_sessionIdMask.apply(QJsonDocument(record).toJson(QJsonDocument::Compact));
    row.isMessage = !msg.isEmpty();
    row.isResponse = row.isMessage && row.method.isEmpty() && !row.requestId.isEmpty() &&
                     (msg.contains("result"_L1) || msg.contains("error"_L1));
    return row;
}

void HistoryStore::rememberRequest(const QString &key, const QString &method, const QString &tool)
{
    const quint64 serial = ++m_pendingSerial;
    m_pending.insert(key, {method, tool, serial});
    m_pendingOrder.append({key, serial});
    // Requests never answered (notifications' ids do not come here; a server that drops
    // calls does): the oldest go first. An entry in the order list whose serial no longer
    // matches was answered or asked again since.
    while (m_pending.size() > MaxPendingRequests && !m_pendingOrder.isEmpty()) {
        const auto [oldKey, oldSerial] = m_pendingOrder.takeFirst();
        const auto it = m_pending.constFind(oldKey);
        if (it != m_pending.constEnd() && it->serial == oldSerial)
            m_pending.erase(it);
    }
    // The answered ones are swept out once they are half the list: kept until the list held
    // 4 x MaxPendingRequests, they made a long session's writer grow by 2 MiB for nothing
    // (heaptrack, sonde-bench-proxy's 100,000 pings). Amortized, one step per request.
    if (m_pendingOrder.size() > 2 * m_pending.size() + 256) {
        QList<QPair<QString, quint64>> live;
        for (const auto &[k, serialOf] : std::as_const(m_pendingOrder)) {
            const auto it = m_pending.constFind(k);
            if (it != m_pending.constEnd() && it->serial == serialOf)
                live.append({k, serialOf});
        }
        m_pendingOrder = std::move(live);
    }
}

qint64 HistoryStore::sessionFor(const Row &row, QString *error)
{
    const SessionKey key{row.server, row.gen};
    if (const auto it = m_sessionIds.constFind(key); it != m_sessionIds.constEnd())
        return *it;
    QSqlQuery q(m_db);
    q.prepare(u"INSERT INTO sessions (run, server, generation, started_ms) VALUES (?, ?, ?, ?)"_s);
    q.addBindValue(m_run);
    q.addBindValue(text(row.server));
    q.addBindValue(row.gen);
    q.addBindValue(row.tMs);
    if (!q.exec()) {
        *error = sqlError(q);
        return 0;
    }
    const qint64 id = q.lastInsertId().toLongLong();
    m_sessionIds.insert(key, id);
    return id;
}

bool HistoryStore::insert(const QList<Row> &rows, QString *error)
{
    if (insertOnce(rows, error))
        return true;
    // Another connection (the window's Clear history) may have deleted the sessions this run
    // was writing to: make them again, once.
    if (!error->contains("FOREIGN KEY"_L1))
        return false;
    m_sessionIds.clear();
    return insertOnce(rows, error);
}

namespace {

// The names of insertEvent's placeholders, made once.
namespace Placeholders {
const QString session = u":session"_s, tMs = u":t_ms"_s, server = u":server"_s, gen = u":gen"_s,
              dir = u":dir"_s, method = u":method"_s, tool = u":tool"_s,
              requestId = u":request_id"_s, isError = u":is_error"_s, size = u":size"_s,
              record = u":record"_s;
} // namespace Placeholders

QString pendingKey(const QString &server, int gen, const QString &dir, const QString &id)
{
    return server + u'\n' + QString::number(gen) + u'\n' + dir + u'\n' + id;
}

} // namespace

void HistoryStore::pairWithRequest(const Row &row, qint64 session, QString *method, QString *tool)
{
    *method = row.method;
    *tool = row.tool;
    if (!row.isMessage || row.requestId.isEmpty())
        return;
    if (!row.isResponse) {
        if (!row.method.isEmpty())
            rememberRequest(pendingKey(row.server, row.gen, row.dir, row.requestId), row.method,
                            row.tool);
        return;
    }
    // The request went the other way: a client's call is answered by the server, and a
    // server's request (sampling, elicitation) by the client.
    const QString requestDir = row.dir == "send"_L1 ? u"recv"_s : u"send"_s;
    const auto it = m_pending.constFind(pendingKey(row.server, row.gen, requestDir, row.requestId));
    if (it != m_pending.constEnd()) {
        *method = it->method;
        *tool = it->tool;
        m_pending.erase(it);
        return;
    }
    // Forgotten (over MaxPendingRequests) or recorded before this store opened: the newest
    // request of that id in the session, found backwards through events_session.
    QSqlQuery &q = m_statements->findRequest;
    q.bindValue(0, session);
    q.bindValue(1, requestDir);
    q.bindValue(2, row.requestId);
    if (q.exec() && q.next()) {
        *method = q.value(0).toString();
        *tool = q.value(1).toString();
    }
    q.finish();
}

bool HistoryStore::prepareStatements(QString *error)
{
    if (m_statements)
        return true;
    auto st = std::make_unique<Statements>(m_db);
    const bool ok =
        st->insertEvent.prepare(
            u"INSERT INTO events (session, t_ms, server, gen, dir, method, tool, request_id,"
            u" is_error, size, record) VALUES (:session, :t_ms, :server, :gen, :dir, :method,"
            u" :tool, :request_id, :is_error, :size, CAST(:record AS TEXT))"_s) &&
        st->touchSession.prepare(
            u"UPDATE sessions SET events = events + ?, ended_ms = max(ended_ms, ?),"
            u" era = CASE WHEN ? = '' THEN era ELSE ? END,"
            u" protocol_version = CASE WHEN ? = '' THEN protocol_version ELSE ? END"
            u" WHERE id = ?"_s) &&
        st->findRequest.prepare(
            u"SELECT method, tool FROM events WHERE session = ? AND dir = ? AND request_id = ?"
            u" AND method <> '' ORDER BY id DESC LIMIT 1"_s) &&
        (!m_fts || st->indexText.prepare(u"INSERT INTO events_fts (rowid, method, tool, record)"
                                         u" SELECT id, method, tool, record FROM events"
                                         u" WHERE id >= ?"_s));
    if (!ok) {
        *error = u"history: cannot prepare the writes: "_s + m_db.lastError().text();
        return false;
    }
    m_statements = std::move(st);
    return true;
}

bool HistoryStore::insertOnce(const QList<Row> &rows, QString *error)
{
    if (rows.isEmpty())
        return true;
    if (!prepareStatements(error))
        return false;
    if (!m_db.transaction()) {
        *error = u"history: "_s + m_db.lastError().text();
        return false;
    }
    const auto fail = [this, error](const QSqlQuery &q) {
        *error = sqlError(q);
        m_db.rollback();
        m_sessionIds.clear(); // the sessions made in this transaction are gone with it
        return false;
    };
    QSqlQuery &q = m_statements->insertEvent;
    struct Touched
    {
        qint64 events = 0, lastMs = 0;
        QString era, protocolVersion;
    };
    QHash<qint64, Touched> touched;
    qint64 firstId = 0;
    QString method, tool, previousMethod, previousTool;
    qint64 previousSession = 0;
    qsizetype largest = 0;
    for (const Row &row : rows) {
        largest = qMax(largest, row.record.size());
        const qint64 session = sessionFor(row, error);
        if (session == 0) {
            m_db.rollback();
            m_sessionIds.clear();
            return false;
        }
        pairWithRequest(row, session, &method, &tool);
        // By name: a positional bind makes its placeholder's name with QString::arg each time
        // (QSqlResultPrivate::fieldSerial), a tenth of a batch's cost. A bound value stays
        // bound after exec() (only the positional counter is reset), so what is the same as
        // the row before (a flood's server, session, method...) is not bound again.
        const bool first = &row == &rows.front();
        const Row *before = first ? nullptr : &row - 1;
        const auto changed = [&](auto field) { return first || row.*field != before->*field; };
        if (first || session != previousSession)
            q.bindValue(Placeholders::session, session);
        q.bindValue(Placeholders::tMs, row.tMs);
        if (changed(&Row::server))
            q.bindValue(Placeholders::server, text(row.server));
        if (changed(&Row::gen))
            q.bindValue(Placeholders::gen, row.gen);
        if (changed(&Row::dir))
            q.bindValue(Placeholders::dir, text(row.dir));
        if (first || method != previousMethod)
            q.bindValue(Placeholders::method, text(method));
        if (first || tool != previousTool)
            q.bindValue(Placeholders::tool, text(tool));
        if (changed(&Row::requestId))
            q.bindValue(Placeholders::requestId, text(row.requestId));
        if (changed(&Row::isError))
            q.bindValue(Placeholders::isError, int(row.isError));
        previousSession = session;
        previousMethod = method;
        previousTool = tool;
        q.bindValue(Placeholders::size, qint64(row.record.size()));
        // As UTF-8 bytes, cast to text by SQLite: bound as a QString, a 20 MiB record was
        // widened to 40 MiB and translated back into an 80 MiB buffer the statement kept.
        // Records are valid UTF-8 (QJsonDocument's, or a frame JsonScanner passed).
        q.bindValue(Placeholders::record, row.record);
        if (!q.exec())
            return fail(q);
        if (firstId == 0)
            firstId = q.lastInsertId().toLongLong();
        Touched &t = touched[session];
        ++t.events;
        t.lastMs = qMax(t.lastMs, row.tMs);
        if (!row.era.isEmpty())
            t.era = row.era;
        if (!row.protocolVersion.isEmpty())
            t.protocolVersion = row.protocolVersion;
    }
    // The statement keeps its last values: not the last record's bytes, past their use.
    q.bindValue(Placeholders::record, QByteArray());
    // The batch's rows are the ones from firstId on: the transaction holds the write lock.
    if (m_fts) {
        QSqlQuery &fts = m_statements->indexText;
        fts.bindValue(0, firstId);
        if (!fts.exec())
            return fail(fts);
    }
    QSqlQuery &s = m_statements->touchSession;
    for (auto it = touched.cbegin(); it != touched.cend(); ++it) {
        s.bindValue(0, it->events);
        s.bindValue(1, it->lastMs);
        s.bindValue(2, text(it->era));
        s.bindValue(3, text(it->era));
        s.bindValue(4, text(it->protocolVersion));
        s.bindValue(5, text(it->protocolVersion));
        s.bindValue(6, it.key());
        if (!s.exec())
            return fail(s);
    }
    if (!m_db.commit()) {
        *error = u"history: "_s + m_db.lastError().text();
        m_db.rollback();
        m_sessionIds.clear();
        return false;
    }
    // SQLite keeps what a big record made it grow for as long as the connection lives: the
    // statement's registers, and FTS5's tokenizer a buffer twice the longest token (a 20 MiB
    // answer on one line, a base64 image: 32 MiB held by the history thread for the run).
    // A new connection after one gives that back; it costs a millisecond, once per big row.
    // The batch is written either way: a connection that cannot be made again is reported
    // by the next write, not by this one (its caller would take the batch for lost).
    if (largest > BigRecordBytes && !m_snapshot) {
        QString why;
        if (!reconnect(&why))
            m_lastError = why;
    }
    return true;
}

QString HistoryStore::where(const HistoryFilter &f, QVariantList *binds) const
{
    QStringList clauses;
    const auto add = [&](const QString &clause, const QVariant &value) {
        clauses << clause;
        binds->append(value);
    };
    // The live transcript's queries (a run, ids after one) find a server's rows through its
    // sessions of the run (events_session: session, id), so a range of ids seeks. On the
    // server's index ("+" keeps SQLite off it) they would walk every row the server ever
    // recorded: a recount after each batch cost 40 ms at 200,000 events instead of nothing.
    // With a run, the sessions' subquery names the server itself, and the index is covering:
    // a server clause here would read every row from the table to check it (a count of a
    // million rows took 350 ms instead of 60). A full-text query is led by its FTS5 index:
    // on the server's, the search for a word found once took 260 ms at a million events.
    const bool byId = f.runId || f.afterId || f.untilId || (!f.text.isEmpty() && m_fts);
    if (!f.server.isEmpty() && !f.runId)
        add(byId ? u"+server = ?"_s : u"server = ?"_s, f.server);
    if (f.sessionId)
        add(u"session = ?"_s, f.sessionId);
    if (f.generation)
        add(u"gen = ?"_s, *f.generation);
    if (!f.direction.isEmpty())
        add(u"dir = ?"_s, f.direction);
    if (!f.method.isEmpty())
        add(u"method = ?"_s, f.method);
    if (f.isError)
        add(u"is_error = ?"_s, int(*f.isError));
    if (f.fromMs)
        add(u"t_ms >= ?"_s, f.fromMs);
    if (f.toMs)
        add(u"t_ms <= ?"_s, f.toMs);
    // A run's rows from a time on (where the Transcript tab finds a row of the timeline's
    // tail) are led by the time index: on the sessions' index or by id, SQLite read every row
    // of the run to check its time (4 s at a million events, against 6 ms for the newest
    // 10,000). "+" keeps it off those.
    const bool byTime = f.runId && f.fromMs;
    const QString session = byTime ? u"+session"_s : u"session"_s;
    if (f.runId && f.server.isEmpty()) {
        add(session + u" IN (SELECT id FROM sessions WHERE run = ?)"_s, f.runId);
    } else if (f.runId) {
        add(session + u" IN (SELECT id FROM sessions WHERE run = ? AND server = ?)"_s, f.runId);
        binds->append(f.server);
    }
    if (!f.directions.isEmpty()) {
        QStringList marks;
        for (const QString &d : f.directions) {
            marks << u"?"_s;
            binds->append(d);
        }
        clauses << u"dir IN ("_s + marks.join(u", "_s) + u')';
    }
    if (!f.methodContains.isEmpty())
        add(u"method LIKE ? ESCAPE '\\'"_s, likeContaining(f.methodContains));
    if (f.afterId)
        add(byTime ? u"+id > ?"_s : u"id > ?"_s, f.afterId);
    if (f.untilId)
        add(byTime ? u"+id <= ?"_s : u"id <= ?"_s, f.untilId);
    if (!f.text.isEmpty()) {
        if (m_fts) {
            // One phrase: the text as typed, quotes doubled, no query syntax of FTS5's.
            QString phrase = f.text;
            phrase.replace(u'"', u"\"\""_s);
            // The id bounds inside too: FTS5 then reads only those ids' hits, not all of them
            // (90 ms at 200,000 matches, for a recount that finds none).
            QString clause = u"id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?"_s;
            binds->append(QString(u'"' + phrase + u'"'));
            if (f.afterId) {
                clause += u" AND rowid > ?"_s;
                binds->append(f.afterId);
            }
            if (f.untilId) {
                clause += u" AND rowid <= ?"_s;
                binds->append(f.untilId);
            }
            clauses << clause + u')';
        } else {
            add(u"(method LIKE ? ESCAPE '\\' OR tool LIKE ? ESCAPE '\\' OR record LIKE ? "
                u"ESCAPE '\\')"_s,
                likeContaining(f.text));
            binds->append(binds->last());
            binds->append(binds->last());
        }
    }
    return clauses.isEmpty() ? QString() : u" WHERE "_s + clauses.join(u" AND "_s);
}

qint64 HistoryStore::count(const HistoryFilter &filter) const
{
    QVariantList binds;
    QSqlQuery q(m_db);
    q.prepare(u"SELECT count(*) FROM events"_s + where(filter, &binds));
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec() || !q.next()) {
        m_lastError = sqlError(q);
        return 0;
    }
    return q.value(0).toLongLong();
}

HistoryStore::Tally HistoryStore::tally(const HistoryFilter &filter) const
{
    QVariantList binds;
    QSqlQuery q(m_db);
    q.prepare(u"SELECT count(*), coalesce(max(id), 0), (SELECT coalesce(max(id), 0) FROM events)"
              u" FROM events"_s +
              where(filter, &binds));
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec() || !q.next()) {
        m_lastError = sqlError(q);
        return {};
    }
    return {q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong()};
}

HistoryStore::Tally HistoryStore::pagedTally(const HistoryFilter &filter, int pageSize,
                                             qint64 firstRow, QList<qint64> *pageStarts,
                                             const std::function<bool()> &stop) const
{
    Q_ASSERT(pageSize > 0);
    // The newest id first, and the rows up to it: a batch committed between the two reads
    // is then left for the next tally after newestId, not counted twice.
    Tally t;
    {
        QSqlQuery newest(m_db);
        if (!newest.exec(u"SELECT coalesce(max(id), 0) FROM events"_s) || !newest.next()) {
            m_lastError = sqlError(newest);
            return {};
        }
        t.newestId = newest.value(0).toLongLong();
    }
    HistoryFilter upTo = filter;
    upTo.untilId = filter.untilId ? qMin(filter.untilId, t.newestId) : t.newestId;
    if (upTo.untilId == 0)
        return t; // nothing recorded (an untilId of 0 would mean no bound)
    // In the index's order, sorted here if that is not the ids' (the sessions of a run are
    // read one after the other): SQLite's ORDER BY sorted a million ids in a temporary B-tree,
    // 260 to 400 ms against 150 to 220 for the read and std::sort.
    QVariantList binds;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT id FROM events"_s + where(upTo, &binds));
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec()) {
        m_lastError = sqlError(q);
        return {};
    }
    std::vector<qint64> ids;
    for (;;) {
        if (stop && ids.size() % StopCheckRows == 0 && stop()) {
            t.stopped = true;
            return t;
        }
        if (!q.next())
            break;
        ids.push_back(q.value(0).toLongLong());
    }
    if (!std::is_sorted(ids.begin(), ids.end()))
        std::sort(ids.begin(), ids.end());
    t.count = qint64(ids.size());
    t.lastId = ids.empty() ? 0 : ids.back();
    for (qint64 i = (pageSize - firstRow % pageSize) % pageSize; i < t.count; i += pageSize)
        pageStarts->append(ids[size_t(i)]);
    return t;
}

QList<QJsonObject> HistoryStore::selectRecords(const HistoryFilter &filter, const QString &order,
                                               const QVariantList &orderBinds,
                                               QList<qint64> *ids) const
{
    QVariantList binds;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT record, id FROM events"_s + where(filter, &binds) + order);
    for (const QVariant &b : std::as_const(binds) + orderBinds)
        q.addBindValue(b);
    QList<QJsonObject> out;
    if (!q.exec()) {
        m_lastError = sqlError(q);
        return out;
    }
    while (q.next()) {
        out.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
        if (ids)
            ids->append(q.value(1).toLongLong());
    }
    return out;
}

QList<QJsonObject> HistoryStore::records(const HistoryFilter &filter, qint64 offset, int limit,
                                         QList<qint64> *ids) const
{
    return selectRecords(filter, u" ORDER BY id LIMIT ? OFFSET ?"_s, {limit, offset}, ids);
}

QList<QJsonObject> HistoryStore::newestRecords(const HistoryFilter &filter, int limit,
                                               QList<qint64> *ids) const
{
    QList<qint64> newestFirst;
    QList<QJsonObject> out =
        selectRecords(filter, u" ORDER BY id DESC LIMIT ?"_s, {limit}, &newestFirst);
    std::reverse(out.begin(), out.end());
    if (ids) {
        std::reverse(newestFirst.begin(), newestFirst.end());
        ids->append(newestFirst);
    }
    return out;
}

QList<HistoryStore::Session> HistoryStore::sessions(const QString &server) const
{
    QSqlQuery q(m_db);
    q.prepare(u"SELECT id, server, generation, started_ms, ended_ms, events, era,"
              u" protocol_version FROM sessions"_s +
              (server.isEmpty() ? QString() : u" WHERE server = ?"_s) +
              u" ORDER BY started_ms DESC, id DESC"_s);
    if (!server.isEmpty())
        q.addBindValue(server);
    QList<Session> out;
    if (!q.exec()) {
        m_lastError = sqlError(q);
        return out;
    }
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toInt(),
                    q.value(3).toLongLong(), q.value(4).toLongLong(), q.value(5).toLongLong(),
                    q.value(6).toString(), q.value(7).toString()});
    return out;
}

QStringList HistoryStore::servers() const
{
    QSqlQuery q(m_db);
    QStringList out;
    if (q.exec(u"SELECT DISTINCT server FROM sessions ORDER BY server"_s))
        while (q.next())
            out << q.value(0).toString();
    return out;
}

qint64 HistoryStore::recordBytes() const
{
    QSqlQuery q(m_db);
    return q.exec(u"SELECT coalesce(sum(size), 0) FROM events"_s) && q.next()
               ? q.value(0).toLongLong()
               : 0;
}

qint64 HistoryStore::applyRetention(const RetentionPolicy &policy, qint64 nowMs, QString *error)
{
    qint64 removed = 0;
    QSqlQuery q(m_db);
    if (policy.maxAgeMs > 0) {
        q.prepare(u"DELETE FROM events WHERE t_ms < ?"_s);
        q.addBindValue(nowMs - policy.maxAgeMs);
        if (!q.exec()) {
            *error = sqlError(q);
            return -1;
        }
        removed += q.numRowsAffected();
    }
    if (policy.maxBytes > 0) {
        // The newest events whose sizes add up to the bound stay: the cut is the id where
        // the running total from the newest end passes it.
        q.prepare(u"DELETE FROM events WHERE id <= (SELECT id FROM (SELECT id, sum(size) OVER "
                  u"(ORDER BY id DESC) AS total FROM events) WHERE total > ? ORDER BY id DESC "
                  u"LIMIT 1)"_s);
        q.addBindValue(policy.maxBytes);
        if (!q.exec()) {
            *error = sqlError(q);
            return -1;
        }
        removed += q.numRowsAffected();
    }
    if (removed > 0) {
        QSqlQuery tidy(m_db);
        tidy.exec(u"DELETE FROM sessions WHERE id NOT IN (SELECT DISTINCT session FROM events)"
                  u" AND run <> "_s +
                  QString::number(m_run));
        tidy.exec(u"UPDATE sessions SET events = (SELECT count(*) FROM events WHERE"
                  u" events.session = sessions.id)"_s);
    }
    return removed;
}

bool HistoryStore::beginSnapshot(QString *error)
{
    if (m_run != 0) {
        *error = u"history: a snapshot is for a store that only reads"_s;
        return false;
    }
    if (m_snapshot)
        return true;
    if (!m_db.transaction()) {
        *error = u"history: cannot begin a read of %1: %2"_s.arg(m_path, m_db.lastError().text());
        return false;
    }
    // BEGIN is deferred: the snapshot is taken by the transaction's first read, made here so
    // that it is taken now and not at the caller's first page.
    QSqlQuery q(m_db);
    if (!q.exec(u"SELECT count(*) FROM runs"_s) || !q.next()) {
        *error = u"history: cannot begin a read of %1: %2"_s.arg(m_path, q.lastError().text());
        q.finish();
        m_db.rollback();
        return false;
    }
    m_snapshot = true;
    return true;
}

void HistoryStore::endSnapshot()
{
    if (std::exchange(m_snapshot, false))
        m_db.rollback(); // it only read: nothing to keep
}

bool HistoryStore::clear(QString *error)
{
    m_statements.reset(); // VACUUM below wants no statement of this connection open
    m_pending.clear();
    m_pendingOrder.clear();
    QSqlQuery q(m_db);
    const bool ok = m_db.transaction() && q.exec(u"DELETE FROM events"_s) &&
                    q.exec(u"DELETE FROM sessions"_s) && m_db.commit();
    if (!ok) {
        *error = sqlError(q);
        m_db.rollback();
        return false;
    }
    m_sessionIds.clear();
    QSqlQuery vacuum(m_db);
    vacuum.exec(u"VACUUM"_s);
    return true;
}

} // namespace Sonde

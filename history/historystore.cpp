// SPDX-License-Identifier: MIT
#include "historystore.h"

#include "config/serverconfig.h"
#include "historyschema.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>

using namespace Qt::StringLiterals;

namespace Sonde {

// One event as the tables keep it.
struct HistoryStore::Row
{
    qint64 tMs = 0;
    QString server, dir, method, tool, requestId, era, protocolVersion;
    int gen = 0;
    bool isError = false;
    QByteArray record;
};

namespace {

QString idText(const QJsonValue &id)
{
    if (id.isString())
        return id.toString();
    return id.isDouble() ? QString::number(id.toInteger()) : QString();
}

// A null QString binds as NULL; the columns want ''.
QString text(const QString &s)
{
    return s.isNull() ? u""_s : s;
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
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool HistoryStore::open(const QString &path, QString *error, const QString &source)
{
    if (!QSqlDatabase::isDriverAvailable(u"QSQLITE"_s)) {
        *error = u"history: Qt's SQLite driver (QSQLITE) is not installed (Debian: "
                 u"libqt6sql6-sqlite)"_s;
        return false;
    }
    m_path = path;
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

void HistoryStore::setPayloadsRecorded(const QString &server, bool recorded)
{
    if (recorded)
        m_noPayloads.remove(server);
    else
        m_noPayloads.insert(server);
}

bool HistoryStore::append(const TranscriptBatch &batch, QString *error)
{
    QList<QJsonObject> records;
    records.reserve(batch.size());
    for (const TranscriptEvent &e : batch)
        records.append(e.toJson());
    return appendRecords(records, error);
}

bool HistoryStore::appendRecords(const QList<QJsonObject> &records, QString *error)
{
    if (m_run == 0) {
        *error = u"history: the store was opened to read only"_s;
        return false;
    }
    QList<Row> rows;
    rows.reserve(records.size());
    for (QJsonObject record : records) {
        const QString server = record.value("server"_L1).toString();
        if (m_redact)
            record = m_redactor.apply(record);
        QJsonObject msg = record.value("msg"_L1).toObject();
        Row row;
        row.tMs = record.value("t_ms"_L1).toInteger();
        row.server = server;
        row.gen = record.value("gen"_L1).toInt();
        row.dir = record.value("dir"_L1).toString();
        if (!msg.isEmpty()) {
            row.method = msg.value("method"_L1).toString();
            row.requestId = idText(msg.value("id"_L1));
            const QJsonObject params = msg.value("params"_L1).toObject();
            if (row.method == "tools/call"_L1 || row.method == "prompts/get"_L1)
                row.tool = params.value("name"_L1).toString();
            else if (row.method == "resources/read"_L1)
                row.tool = params.value("uri"_L1).toString();
            row.isError = msg.contains("error"_L1) ||
                          msg.value("result"_L1).toObject().value("isError"_L1).toBool();
            const QJsonObject result = msg.value("result"_L1).toObject();
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
            row.protocolVersion = details.value("protocolVersion"_L1).toString();
            if (m_noPayloads.contains(server) && record.contains("line"_L1)) {
                record.remove("line"_L1);
                record.insert("payload_omitted"_L1, true);
            }
        }
        row.record = QJsonDocument(record).toJson(QJsonDocument::Compact);
        rows.append(std::move(row));
    }
    return insert(rows, error);
}

qint64 HistoryStore::sessionFor(const Row &row, QString *error)
{
    const QString key = row.server + u'\n' + QString::number(row.gen);
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

bool HistoryStore::insertOnce(const QList<Row> &rows, QString *error)
{
    if (rows.isEmpty())
        return true;
    if (!m_db.transaction()) {
        *error = u"history: "_s + m_db.lastError().text();
        return false;
    }
    QSqlQuery q(m_db);
    q.prepare(u"INSERT INTO events (session, t_ms, server, gen, dir, method, tool, request_id,"
              u" is_error, size, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    struct Touched
    {
        qint64 events = 0, lastMs = 0;
        QString era, protocolVersion;
    };
    QHash<qint64, Touched> touched;
    for (const Row &row : rows) {
        const qint64 session = sessionFor(row, error);
        bool ok = session != 0;
        if (ok) {
            q.bindValue(0, session);
            q.bindValue(1, row.tMs);
            q.bindValue(2, text(row.server));
            q.bindValue(3, row.gen);
            q.bindValue(4, text(row.dir));
            q.bindValue(5, text(row.method));
            q.bindValue(6, text(row.tool));
            q.bindValue(7, text(row.requestId));
            q.bindValue(8, int(row.isError));
            q.bindValue(9, qint64(row.record.size()));
            q.bindValue(10, QString::fromUtf8(row.record));
            ok = q.exec();
            if (!ok)
                *error = sqlError(q);
        }
        if (!ok) {
            m_db.rollback();
            m_sessionIds.clear(); // the sessions made in this transaction are gone with it
            return false;
        }
        Touched &t = touched[session];
        ++t.events;
        t.lastMs = qMax(t.lastMs, row.tMs);
        if (!row.era.isEmpty())
            t.era = row.era;
        if (!row.protocolVersion.isEmpty())
            t.protocolVersion = row.protocolVersion;
    }
    QSqlQuery s(m_db);
    s.prepare(u"UPDATE sessions SET events = events + ?, ended_ms = max(ended_ms, ?),"
              u" era = CASE WHEN ? = '' THEN era ELSE ? END,"
              u" protocol_version = CASE WHEN ? = '' THEN protocol_version ELSE ? END"
              u" WHERE id = ?"_s);
    for (auto it = touched.cbegin(); it != touched.cend(); ++it) {
        s.bindValue(0, it->events);
        s.bindValue(1, it->lastMs);
        s.bindValue(2, text(it->era));
        s.bindValue(3, text(it->era));
        s.bindValue(4, text(it->protocolVersion));
        s.bindValue(5, text(it->protocolVersion));
        s.bindValue(6, it.key());
        if (!s.exec()) {
            *error = sqlError(s);
            m_db.rollback();
            m_sessionIds.clear();
            return false;
        }
    }
    if (!m_db.commit()) {
        *error = u"history: "_s + m_db.lastError().text();
        m_db.rollback();
        m_sessionIds.clear();
        return false;
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
    if (!f.server.isEmpty())
        add(u"server = ?"_s, f.server);
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
    if (!f.text.isEmpty()) {
        if (m_fts) {
            // One phrase: the text as typed, quotes doubled, no query syntax of FTS5's.
            QString phrase = f.text;
            phrase.replace(u'"', u"\"\""_s);
            add(u"id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)"_s,
                QString(u'"' + phrase + u'"'));
        } else {
            QString like = f.text;
            like.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
            add(u"(method LIKE ? ESCAPE '\\' OR tool LIKE ? ESCAPE '\\' OR record LIKE ? "
                u"ESCAPE '\\')"_s,
                QString(u'%' + like + u'%'));
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

QList<QJsonObject> HistoryStore::records(const HistoryFilter &filter, qint64 offset,
                                         int limit) const
{
    QVariantList binds;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT record FROM events"_s + where(filter, &binds) +
              u" ORDER BY id LIMIT ? OFFSET ?"_s);
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    q.addBindValue(limit);
    q.addBindValue(offset);
    QList<QJsonObject> out;
    if (!q.exec()) {
        m_lastError = sqlError(q);
        return out;
    }
    while (q.next())
        out.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
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

bool HistoryStore::clear(QString *error)
{
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

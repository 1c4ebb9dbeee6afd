// SPDX-License-Identifier: MIT
#include "historyschema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Version 1. A run is one process that recorded (a window, a sonde-cli run, an import): each
// starts its generations at 1, so a session is (run, server, generation). Events keep the
// whole record as compact JSON, redacted, and the columns the filters need.
const char *const Version1[] = {
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_ms INTEGER NOT NULL, source TEXT NOT NULL)",
    "CREATE TABLE sessions (id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id),"
    " server TEXT NOT NULL, generation INTEGER NOT NULL, started_ms INTEGER NOT NULL,"
    " ended_ms INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0,"
    " era TEXT NOT NULL DEFAULT '', protocol_version TEXT NOT NULL DEFAULT '',"
    " UNIQUE (run, server, generation))",
    "CREATE INDEX sessions_server ON sessions (server, started_ms)",
    "CREATE TABLE events (id INTEGER PRIMARY KEY, session INTEGER NOT NULL REFERENCES sessions(id),"
    " t_ms INTEGER NOT NULL, server TEXT NOT NULL, gen INTEGER NOT NULL, dir TEXT NOT NULL,"
    " method TEXT NOT NULL DEFAULT '', tool TEXT NOT NULL DEFAULT '', request_id TEXT NOT NULL"
    " DEFAULT '', is_error INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL, record TEXT NOT "
    "NULL)",
    "CREATE INDEX events_session ON events (session, id)",
    "CREATE INDEX events_server_time ON events (server, t_ms)",
    "CREATE INDEX events_method ON events (method)",
    "CREATE INDEX events_time ON events (t_ms)",
};

// The full-text index reads its text from events (external content), so the payload is
// stored once; the triggers keep it in step with inserts and deletes (version 2 takes the
// insert trigger away).
const char *const Version1Fts[] = {
    "CREATE VIRTUAL TABLE events_fts USING fts5(method, tool, record, content='events',"
    " content_rowid='id')",
    "CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN INSERT INTO events_fts(rowid, method,"
    " tool, record) VALUES (new.id, new.method, new.tool, new.record); END",
    "CREATE TRIGGER events_ad AFTER DELETE ON events BEGIN INSERT INTO events_fts(events_fts,"
    " rowid, method, tool, record) VALUES ('delete', old.id, old.method, old.tool, old.record);"
    " END",
};

// Version 2: the full-text index is filled once per batch by the store (one INSERT ... SELECT
// over the batch's rows, HistoryStore::insertOnce), not by a trigger per row: FTS5 flushes
// its pending terms at the end of every statement that writes it, so the trigger cost a
// segment write per event (sonde-bench-history: 81 ms a batch of 500 against 16).
const char *const Version2Fts[] = {
    "DROP TRIGGER IF EXISTS events_ai",
};

bool run(QSqlDatabase &db, const char *sql, QString *error)
{
    QSqlQuery q(db);
    if (q.exec(QString::fromUtf8(sql)))
        return true;
    *error = u"history schema: %1 (%2)"_s.arg(q.lastError().text(), QString::fromUtf8(sql));
    return false;
}

} // namespace

bool HistorySchema::hasFts5(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(u"PRAGMA compile_options"_s))
        return false;
    while (q.next())
        if (q.value(0).toString() == "ENABLE_FTS5"_L1)
            return true;
    return false;
}

bool HistorySchema::migrate(QSqlDatabase &db, QString *error)
{
    // IMMEDIATE: the write lock before the version is read, so the window's reader and its
    // recorder opening the same new file at once do not both create the tables.
    QSqlQuery begin(db);
    if (!begin.exec(u"BEGIN IMMEDIATE"_s)) {
        *error = u"not a history database: %1"_s.arg(begin.lastError().text());
        return false;
    }
    const auto fail = [&db] {
        QSqlQuery(db).exec(u"ROLLBACK"_s);
        return false;
    };
    QSqlQuery version(db);
    if (!version.exec(u"PRAGMA user_version"_s) || !version.next()) {
        *error = u"not a history database: %1"_s.arg(version.lastError().text());
        return fail();
    }
    const int have = version.value(0).toInt();
    version.finish();
    if (have > Version) {
        *error = u"the history database is of version %1, newer than this Sonde knows (%2): "
                 u"open it with a newer Sonde"_s.arg(have)
                     .arg(Version);
        return fail();
    }
    bool ok = true;
    if (have < 1) {
        for (const char *sql : Version1)
            ok = ok && run(db, sql, error);
        if (ok && hasFts5(db))
            for (const char *sql : Version1Fts)
                ok = ok && run(db, sql, error);
    }
    if (have < 2)
        for (const char *sql : Version2Fts)
            ok = ok && run(db, sql, error);
    // Later versions add their steps here: `if (have < 3) { ... }`.
    if (ok && have < Version)
        ok = run(db, QByteArray("PRAGMA user_version = " + QByteArray::number(Version)).constData(),
                 error);
    if (!ok)
        return fail();
    QSqlQuery commit(db);
    if (!commit.exec(u"COMMIT"_s)) {
        *error = u"history schema: %1"_s.arg(commit.lastError().text());
        return fail();
    }
    return true;
}

} // namespace Sonde

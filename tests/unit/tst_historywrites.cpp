// SPDX-License-Identifier: MIT
// How the history writes: a response row carries its request's method (so a method filter
// finds both legs), the redaction pre-check never lets a secret through and keeps a clean
// record as it was, the full-text index holds each row once, and a version 1 file is brought
// to version 2 without losing a row.
#include "config/serverconfig.h"
#include "historyschema.h"
#include "historystore.h"
#include "transcript/redactor.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using D = TranscriptEvent::Direction;

TranscriptEvent wire(qint64 t, D dir, const QByteArray &raw, const QString &server = u"alpha"_s)
{
    TranscriptEvent e;
    e.timeMs = 1700000000000 + t;
    e.server = server;
    e.generation = 1;
    e.direction = dir;
    e.raw = raw;
    return e;
}

QByteArray call(int id, const QByteArray &method)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) + ",\"method\":\"" + method +
           "\",\"params\":{\"name\":\"echo\"}}";
}

QByteArray answer(int id)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) + ",\"result\":{}}";
}

// The rows of a method, as the History tab's filter asks.
QStringList dirsOf(const HistoryStore &store, const QString &method)
{
    HistoryFilter f;
    f.method = method;
    QStringList dirs;
    for (const QJsonObject &r : store.records(f, 0, 100))
        dirs << r.value("dir"_L1).toString();
    return dirs;
}

qint64 scalar(const QString &path, const QString &sql)
{
    qint64 value = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"peek"_s);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                value = q.value(0).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(u"peek"_s);
    return value;
}

} // namespace

class TestHistoryWrites : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aResponseRowCarriesItsRequestsMethod_data()
    {
        QTest::addColumn<QList<TranscriptEvent>>("events");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QStringList>("dirs");
        QTest::newRow("a call and its answer in one batch")
            << QList<TranscriptEvent>{wire(0, D::Outgoing, call(1, "tools/call")),
                                      wire(1, D::Incoming, answer(1))}
            << u"tools/call"_s << QStringList{u"send"_s, u"recv"_s};
        QTest::newRow("a server's request answered by the client")
            << QList<TranscriptEvent>{wire(0, D::Incoming, call(7, "sampling/createMessage")),
                                      wire(1, D::Outgoing, answer(7))}
            << u"sampling/createMessage"_s << QStringList{u"recv"_s, u"send"_s};
        QTest::newRow("the same id from the other side is another request")
            << QList<TranscriptEvent>{wire(0, D::Outgoing, call(1, "tools/list")),
                                      wire(1, D::Incoming, call(1, "roots/list")),
                                      wire(2, D::Outgoing, answer(1)),
                                      wire(3, D::Incoming, answer(1))}
            << u"tools/list"_s << QStringList{u"send"_s, u"recv"_s};
        QTest::newRow("an answer of another server's id stays without a method")
            << QList<TranscriptEvent>{wire(0, D::Outgoing, call(1, "tools/list")),
                                      wire(1, D::Incoming, answer(1), u"beta"_s)}
            << u"tools/list"_s << QStringList{u"send"_s};
    }
    void aResponseRowCarriesItsRequestsMethod()
    {
        QFETCH(QList<TranscriptEvent>, events);
        QFETCH(QString, method);
        QFETCH(QStringList, dirs);
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(u"h.db"_s), &error, u"test"_s), qPrintable(error));
        // One batch each: the pairing holds across batches, as the 50 ms batches split them.
        for (const TranscriptEvent &e : std::as_const(events))
            QVERIFY2(store.append({e}, &error), qPrintable(error));
        QCOMPARE(dirsOf(store, method), dirs);
    }

    // The store remembers MaxPendingRequests unanswered calls; an answer to one it forgot is
    // looked up in the table.
    void anAnswerToAForgottenRequestIsLookedUp()
    {
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(u"h.db"_s), &error, u"test"_s));
        TranscriptBatch batch{wire(0, D::Outgoing, call(1, "resources/read"))};
        for (int id = 2; id <= HistoryStore::MaxPendingRequests + 10; ++id)
            batch.append(wire(id, D::Outgoing, call(id, "tools/list")));
        QVERIFY2(store.append(batch, &error), qPrintable(error));
        QVERIFY2(store.append({wire(1, D::Incoming, answer(1))}, &error), qPrintable(error));
        QCOMPARE(dirsOf(store, u"resources/read"_s), (QStringList{u"send"_s, u"recv"_s}));
    }

    // Redactor::mayHoldSecret is apply()'s pre-check: wherever apply() changes a text, it
    // must say true, or a secret would reach the disk unmasked.
    void theRedactionPreCheckLetsNoSecretThrough_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("masked");
        // What each rule masks, then what the flood's records hold.
        QTest::newRow("a bearer credential") << u"sent Bearer abc.def-123"_s << true;
        QTest::newRow("an Authorization header") << u"authorization: Basic dXNlcjpwYXNz"_s << true;
        QTest::newRow("an OpenAI-style key") << u"key is sk-abcdefghijklmnop"_s << true;
        QTest::newRow("a GitHub token") << u"ghp_0123456789abcdefghijABCDEFGHIJ"_s << true;
        QTest::newRow("a JSON Web Token") << u"eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl"_s << true;
        QTest::newRow("an AWS key id") << u"AKIAABCDEFGHIJKLMNOP"_s << true;
        QTest::newRow("a URL's password") << u"postgres://me:hunter2@db/x"_s << true;
        QTest::newRow("NAME=value") << u"GITHUB_TOKEN=abc123"_s << true;
        QTest::newRow("a quoted JSON key") << u"{\"api_key\": \"abc123\"}"_s << true;
        QTest::newRow("a flag") << u"--client-secret s3cr3t"_s << true;
        QTest::newRow("a camelCase name") << u"accessToken: xyz"_s << true;
        QTest::newRow("an OAuth code in a query") << u"/cb?code=abc&state=1"_s << true;
        QTest::newRow("the configured value") << u"note configured-value-7d1f here"_s << true;
        QTest::newRow("a log line")
            << u"event 12 of the flood, a line of about the size a server logs"_s << false;
        QTest::newRow("a time") << u"2023-11-14T22:13:20.000Z"_s << false;
        QTest::newRow("a method name") << u"notifications/message"_s << false;
        QTest::newRow("an id word without a separator") << u"provide the idle side"_s << false;
        QTest::newRow("a key word with a separator but no value worth it")
            << u"key: user"_s << false;
        QTest::newRow("a URL without a password") << u"https://example.org/x"_s << false;
    }
    void theRedactionPreCheckLetsNoSecretThrough()
    {
        QFETCH(QString, text);
        QFETCH(bool, masked);
        Redactor r;
        r.addSecret(u"configured-value-7d1f"_s);
        QCOMPARE(r.apply(text) != text, masked);
        if (masked)
            QVERIFY(r.mayHoldSecret(text));
        // The plain rows are what the flood's records hold: the pre-check must pass them
        // over, or it spares nothing ("key: user" is the exception that goes the long way).
        if (!masked && !text.startsWith("key"_L1))
            QVERIFY2(!r.mayHoldSecret(text), qPrintable(text));
    }

    void aRecordWithNothingToMaskIsStoredAsItWas()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        ServerConfig config;
        config.environment.insert(u"TOKEN"_s, u"configured-value-7d1f"_s);
        HistoryStore store;
        QString error;
        QVERIFY(store.open(path, &error, u"test"_s));
        store.addSecrets(config);
        const TranscriptEvent clean = wire(0, D::Incoming,
                                           "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                                           "message\",\"params\":{\"data\":\"all is well\"}}");
        const TranscriptEvent secret =
            wire(1, D::Incoming,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
                 "\"data\":\"token configured-value-7d1f leaked\"}}");
        QVERIFY(store.append({clean, secret}, &error));
        const QList<QJsonObject> rows = store.records({}, 0, 10);
        QCOMPARE(rows.at(0), clean.toJson());
        const QString data = rows.at(1)
                                 .value("msg"_L1)
                                 .toObject()
                                 .value("params"_L1)
                                 .toObject()
                                 .value("data"_L1)
                                 .toString();
        QCOMPARE(data, u"token [REDACTED] leaked"_s);
    }

    void theFullTextIndexHoldsEachRowOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        {
            HistoryStore store;
            QString error;
            QVERIFY(store.open(path, &error, u"test"_s));
            TranscriptBatch batch;
            for (int i = 0; i < 3; ++i)
                batch.append(wire(i, D::Stderr, "line " + QByteArray::number(i) + " findme"));
            QVERIFY(store.append(batch, &error));
            QVERIFY(store.append({wire(9, D::Stderr, "later findme")}, &error));
        }
        QCOMPARE(scalar(path, u"SELECT count(*) FROM events_fts WHERE events_fts MATCH "
                              u"'findme'"_s),
                 4);
    }

    // A file of the first release has the per-row insert trigger: kept, it would index every
    // row twice beside the store's per-batch statement.
    void aVersion1FileIsMigratedWithItsRows()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        {
            HistoryStore store;
            QString error;
            QVERIFY(store.open(path, &error, u"first release"_s));
            QVERIFY(store.append({wire(0, D::Stderr, "old findme")}, &error));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"v1"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN INSERT INTO "
                           u"events_fts(rowid, method, tool, record) VALUES (new.id, new.method,"
                           u" new.tool, new.record); END"_s));
            QVERIFY(q.exec(u"PRAGMA user_version = 1"_s));
        }
        QSqlDatabase::removeDatabase(u"v1"_s);
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(path, &error, u"this release"_s), qPrintable(error));
        QVERIFY(store.append({wire(1, D::Stderr, "new findme")}, &error));
        HistoryFilter f;
        f.text = u"findme"_s;
        QCOMPARE(store.count(f), 2);
        QCOMPARE(scalar(path, u"PRAGMA user_version"_s), HistorySchema::Version);
        QCOMPARE(scalar(path, u"SELECT count(*) FROM sqlite_master WHERE name = 'events_ai'"_s), 0);
        QCOMPARE(scalar(path, u"SELECT count(*) FROM events_fts WHERE events_fts MATCH "
                              u"'findme'"_s),
                 2);
    }
};

QTEST_GUILESS_MAIN(TestHistoryWrites)
#include "tst_historywrites.moc"

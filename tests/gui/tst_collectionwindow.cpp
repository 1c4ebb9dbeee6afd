// SPDX-License-Identifier: MIT
// Collections from the window: a call saved into a collection file from the Tools tab, and a
// collection run through File → Run collection… against sonde-demo-server.
#include "collection.h"
#include "collectionwriter.h"
#include "demowindow.h"
#include "tools/schemaformwidget.h"
#include "transcript/collectionrundialog.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QJsonObject textResult(const QString &text, bool isError = false)
{
    return {{"content"_L1, QJsonArray{QJsonObject{{"type"_L1, u"text"_s}, {"text"_L1, text}}}},
            {"isError"_L1, isError}};
}

ServerConfig demoConfig()
{
    ServerConfig c;
    c.name = u"demo"_s;
    c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
    return c;
}

// Answers the file dialog the window opened (open(), so it is there at once) with `path`.
void chooseFile(QWidget *parent, const QString &dialogName, const QString &path)
{
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = parent->findChild<QFileDialog *>(dialogName)) && dialog->isVisible());
    dialog->selectFile(path);
    QMetaObject::invokeMethod(dialog, "accept");
}

} // namespace

class TestCollectionWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aCallSavedFromTheToolsTabRunsAsACollection()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"smoke.json"_s);
        DemoWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(w.toolRows() >= 19, 10000);
        ToolsPanel *tools = w.window.toolsPanel();
        auto *save = tools->findChild<QPushButton *>(u"saveToCollection"_s);
        auto *call = tools->findChild<QPushButton *>(u"callButton"_s);
        QVERIFY(tools->selectTool(u"echo"_s));
        QVERIFY(!save->isEnabled()); // nothing answered yet
        for (const QString &message : {u"hi there"_s, u"second call"_s}) {
            tools->form()->setValue({{"message"_L1, message}});
            QTRY_VERIFY(call->isEnabled());
            QTest::mouseClick(call, Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(tools->resultText().contains(message), 10000);
            QTRY_VERIFY(save->isEnabled());
            QTest::mouseClick(save, Qt::LeftButton);
            chooseFile(tools, u"saveToCollectionDialog"_s, path);
            QMessageBox *told = nullptr;
            QTRY_VERIFY((told = tools->findChild<QMessageBox *>(u"savedToCollection"_s)) &&
                        told->isVisible());
            QVERIFY2(told->text().startsWith(u"echo saved to "_s + path), qPrintable(told->text()));
            told->accept();
            QTRY_VERIFY(!tools->findChild<QMessageBox *>(u"savedToCollection"_s));
        }

        // It reads as a collection: the server as configured, both calls, the second named
        // apart, each expecting what its answer showed.
        QString error;
        const std::optional<Collection> c = Collection::load(path, &error);
        QVERIFY2(c, qPrintable(error));
        QCOMPARE(c->name, u"smoke"_s);
        QCOMPARE(c->server.program, QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        QCOMPARE(c->calls.size(), 2);
        QCOMPARE(c->calls.at(0).name, u"echo"_s);
        QCOMPARE(c->calls.at(1).name, u"echo (2)"_s);
        QCOMPARE(c->calls.at(1).params.value("arguments"_L1).toObject(),
                 QJsonObject({{"message"_L1, u"second call"_s}}));
        const QByteArray text = readAll(path);
        QVERIFY2(
            text.contains("{\"name\": \"echo\", \"tool\": \"echo\", \"args\": {\"message\":\"hi "
                          "there\"}, \"expect\": {\"is_error\":false,\"text_contains\":\"Echo: hi "
                          "there\"}}"),
            text.constData());
        QCOMPARE(text.count('\n'), 5); // name, server, "calls": [, one line per call

        // File → Run collection… runs it on its own engine: both pass.
        w.window.actions()->action(MainWindowActions::RunCollection)->trigger();
        chooseFile(&w.window, u"runCollectionFile"_s, path);
        CollectionRunDialog *run = nullptr;
        QTRY_VERIFY((run = w.window.findChild<CollectionRunDialog *>()));
        QTRY_VERIFY_WITH_TIMEOUT(run->isFinished(), 20000);
        QVERIFY2(run->summaryText().startsWith("smoke: 2 of 2 calls passed in "_L1),
                 qPrintable(run->summaryText()));
        auto *rows = run->findChild<QTreeWidget *>(u"collectionResults"_s);
        QCOMPARE(rows->topLevelItemCount(), 2);
        QCOMPARE(rows->topLevelItem(1)->text(0), u"echo (2)"_s);
        QCOMPARE(rows->topLevelItem(1)->text(1), u"passed"_s);
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty())
            run->grab().save(shots + u"/collection-run.png"_s);
        auto *junit = run->findChild<QPushButton *>(u"saveJUnit"_s);
        QVERIFY(junit->isEnabled());
        QTest::mouseClick(junit, Qt::LeftButton);
        chooseFile(run, u"saveJUnitDialog"_s, dir.filePath(u"out.xml"_s));
        const QByteArray xml = readAll(dir.filePath(u"out.xml"_s));
        QVERIFY2(xml.contains("<testsuite name=\"smoke\" tests=\"2\" failures=\"0\""),
                 xml.constData());
        run->close();
    }

    void aFailedExpectationIsAFailedRow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"fails.json"_s);
        QStringList leftOut;
        QString error;
        int calls = 0;
        QVERIFY(CollectionWriter::append(path, demoConfig(),
                                         {u"echo says bye"_s,
                                          u"echo"_s,
                                          {{"message"_L1, u"hi"_s}},
                                          {{"text_contains"_L1, u"bye"_s}}},
                                         &leftOut, &calls, &error));
        CollectionRunDialog run;
        QVERIFY(run.start(path));
        QTRY_VERIFY_WITH_TIMEOUT(run.isFinished(), 20000);
        QVERIFY2(run.summaryText().startsWith("fails: 0 of 1 calls passed"_L1),
                 qPrintable(run.summaryText()));
        const QTreeWidgetItem *row =
            run.findChild<QTreeWidget *>(u"collectionResults"_s)->topLevelItem(0);
        QCOMPARE(row->text(1), u"failed"_s);
        QVERIFY2(row->text(3).contains("bye"_L1), qPrintable(row->text(3)));
    }

    void aFileThatIsNotACollectionIsNotRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"notes.json"_s);
        writeAll(path, "[1, 2]");
        CollectionRunDialog run;
        QVERIFY(!run.start(path));
        QVERIFY(run.isFinished());
        QVERIFY2(run.summaryText().startsWith("Not run: "_L1), qPrintable(run.summaryText()));
    }

    void aFileThatIsNotACollectionIsLeftAsItWas_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not JSON at all") << QByteArray("hello, world\n") << u"notes.json"_s;
        QTest::newRow("a JSON array") << QByteArray("[1, 2]\n") << u"notes.json"_s;
        QTest::newRow("a collection with an unknown field")
            << QByteArray("{\"server\": {\"command\": \"x\"}, \"calls\": [{\"tool\": \"echo\", "
                          "\"expect\": {\"text_contain\": \"hi\"}}]}")
            << u"\"expect\" has an unknown field \"text_contain\""_s;
    }
    void aFileThatIsNotACollectionIsLeftAsItWas()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"notes.json"_s);
        writeAll(path, content);
        QString error;
        QVERIFY(!CollectionWriter::append(path, demoConfig(), {{}, u"echo"_s, {}, {}}, nullptr,
                                          nullptr, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        QCOMPARE(readAll(path), content);
    }

    void secretsAreNotWritten()
    {
        QTemporaryDir dir;
        ServerConfig stdio = demoConfig();
        stdio.environment = {{u"API_TOKEN"_s, u"s3cr3t-env"_s}, {u"LANG"_s, u"C"_s}};
        QStringList leftOut;
        const QJsonObject entry = CollectionWriter::serverEntry(stdio, &leftOut);
        QCOMPARE(entry.value("env"_L1).toObject(),
                 QJsonObject({{"API_TOKEN"_L1, u"${env:API_TOKEN}"_s}, {"LANG"_L1, u"C"_s}}));
        QCOMPARE(leftOut, QStringList{u"env API_TOKEN (written as ${env:API_TOKEN})"_s});

        ServerConfig http;
        http.name = u"remote"_s;
        http.route = ServerConfig::Route::StreamableHttp;
        http.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        http.headers = {{"Authorization", "Bearer s3cr3t-bearer"},
                        {"X-Tenant", "blue"},
                        {"X-Marked", "s3cr3t-marked"}};
        http.secretHeaders = {"x-marked"};
        leftOut.clear();
        const QString path = dir.filePath(u"remote.json"_s);
        QString error;
        QVERIFY2(CollectionWriter::append(path, http, {{}, u"echo"_s, {}, {}}, &leftOut, nullptr,
                                          &error),
                 qPrintable(error));
        QCOMPARE(leftOut, (QStringList{u"header Authorization"_s, u"header X-Marked"_s}));
        const QByteArray text = readAll(path);
        QVERIFY2(!text.contains("s3cr3t"), text.constData());
        QVERIFY2(text.contains("\"headers\": {\"X-Tenant\":\"blue\"}"), text.constData());
        QVERIFY2(text.contains("\"type\": \"http\""), text.constData());
    }

    void theExpectationIsWhatTheAnswerShowed_data()
    {
        QTest::addColumn<QJsonObject>("result");
        QTest::addColumn<bool>("rpcError");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QJsonObject>("expect");
        QTest::newRow("a text answer expects its text and no error")
            << textResult(u"Echo: hi"_s) << false << QString()
            << QJsonObject{{"is_error"_L1, false}, {"text_contains"_L1, u"Echo: hi"_s}};
        QTest::newRow("a tool error expects an error")
            << textResult(u"boom"_s, true) << false << QString()
            << QJsonObject{{"is_error"_L1, true}, {"text_contains"_L1, u"boom"_s}};
        QTest::newRow("a long text expects the start of its first line")
            << textResult(u"  0123456789012345678901234567890123456789tail\nsecond line"_s) << false
            << QString()
            << QJsonObject{{"is_error"_L1, false},
                           {"text_contains"_L1, u"0123456789012345678901234567890123456789"_s}};
        QTest::newRow("an answer without text expects only no error")
            << QJsonObject{{"structuredContent"_L1, QJsonObject{{"n"_L1, 1}}}} << false << QString()
            << QJsonObject{{"is_error"_L1, false}};
        QTest::newRow("a JSON-RPC error expects an error and its message")
            << QJsonObject() << true << u"Unknown tool: nope"_s
            << QJsonObject{{"is_error"_L1, true}, {"text_contains"_L1, u"Unknown tool: nope"_s}};
    }
    void theExpectationIsWhatTheAnswerShowed()
    {
        QFETCH(QJsonObject, result);
        QFETCH(bool, rpcError);
        QFETCH(QString, message);
        QFETCH(QJsonObject, expect);
        QCOMPARE(CollectionWriter::expectFrom(result, rpcError, message), expect);
    }
};

QTEST_MAIN(TestCollectionWindow)
#include "tst_collectionwindow.moc"

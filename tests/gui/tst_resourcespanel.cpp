// SPDX-License-Identifier: MIT
// The Resources tab's last read as a user meets it: a text block (HTML, Markdown, plain) is
// shown as its text and a blob as its size and type, beside the answer's JSON; Save… writes
// the contents whole (a text as it came, a blob decoded), however little of it the view
// shows; and the read shown is always the selected server's.
#include "application/servers/serverviewstore.h"
#include "application/tools/resourcecontents.h"
#include "jsontestdata.h"
#include "tools/resourcespanel.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QFile>
#include <QFileDialog>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

QJsonObject textBlock(const QString &uri, const QString &mime, const QString &text)
{
    return {{"uri"_L1, uri}, {"mimeType"_L1, mime}, {"text"_L1, text}};
}

QJsonObject blobBlock(const QString &uri, const QString &mime, const QByteArray &bytes)
{
    return {
        {"uri"_L1, uri}, {"mimeType"_L1, mime}, {"blob"_L1, QString::fromLatin1(bytes.toBase64())}};
}

CallOutcome readOf(const QJsonArray &contents)
{
    CallOutcome o;
    o.method = u"resources/read"_s;
    o.result = QJsonObject{{"contents"_L1, contents}};
    return o;
}

QByteArray someBytes(int size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(29);
    for (char &c : bytes)
        c = char(generator.bounded(256));
    return bytes;
}

const QString page = u"<!doctype html>\n<html>\n<body>\n<p>hi</p>\n</body>\n</html>"_s;

} // namespace

class TestResourcesPanel : public QObject
{
    Q_OBJECT

    struct Shown
    {
        ServerViewStore store;
        ResourcesPanel panel{&store};
        explicit Shown(const QStringList &servers = {u"a"_s, u"b"_s})
        {
            for (const QString &s : servers)
                store.addServer(s, {});
            panel.resize(900, 600);
            panel.show();
            panel.showServer(servers.first());
        }
        void read(const QString &server, const CallOutcome &o)
        {
            store.setLastAnswer(server, PendingCommand::Kind::Read, o);
        }
        QPlainTextEdit *text() const
        {
            return panel.findChild<QPlainTextEdit *>(u"resourceText"_s);
        }
        QPushButton *save() const { return panel.findChild<QPushButton *>(u"saveResource"_s); }
    };

    static void screenshot(QWidget *widget, const QString &name)
    {
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the panel as dir/<name>.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            widget->grab().save(dir + u'/' + name + u".png"_s);
    }

private Q_SLOTS:
    void aReadIsShownAsItsContents_data()
    {
        QTest::addColumn<QJsonArray>("contents");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("fileName");
        QTest::newRow("an MCP App page is shown as its HTML, line by line")
            << QJsonArray{textBlock(u"ui://demo/page.html"_s, u"text/html;profile=mcp-app"_s, page)}
            << page << u"page.html"_s;
        QTest::newRow("Markdown is shown as its text")
            << QJsonArray{textBlock(u"demo://readme"_s, u"text/markdown"_s,
                                    u"# Title\n\nSome *words*."_s)}
            << u"# Title\n\nSome *words*."_s << u"readme.md"_s;
        QTest::newRow("plain text is shown as it came")
            << QJsonArray{textBlock(u"demo://notes/3"_s, u"text/plain"_s, u"This is note 3."_s)}
            << u"This is note 3."_s << u"3.txt"_s;
        QTest::newRow("a blob is shown as its size and type")
            << QJsonArray{blobBlock(u"demo://images/logo"_s, u"image/png"_s, someBytes(1234))}
            << u"(1,234 bytes of image/png)"_s << u"logo.png"_s;
        QTest::newRow("several blocks are shown one after the other")
            << QJsonArray{textBlock(u"demo://a"_s, u"text/plain"_s, u"first"_s),
                          blobBlock(u"demo://b"_s, u"application/octet-stream"_s, someBytes(10))}
            << u"first\n\n(10 bytes of application/octet-stream)"_s << u"resource.json"_s;
    }

    void aReadIsShownAsItsContents()
    {
        QFETCH(QJsonArray, contents);
        QFETCH(QString, shown);
        QFETCH(QString, fileName);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        Shown s;
        QVERIFY(!s.save()->isEnabled());
        s.read(u"a"_s, readOf(contents));
        QCOMPARE(s.text()->toPlainText(), shown);
        QCOMPARE(s.panel.contentText(), shown);
        QCOMPARE(s.text()->document()->blockCount(), int(shown.count(u'\n')) + 1);
        QVERIFY(s.text()->isVisible());
        // The answer's JSON stays one tab away.
        auto *json = s.panel.findChild<JsonView *>(u"resourceContent"_s);
        QCOMPARE(QJsonDocument::fromJson(json->toPlainText().toUtf8()).object(),
                 readOf(contents).result.toObject());
        QVERIFY(s.save()->isEnabled());
        QCOMPARE(ResourceContents(readOf(contents).result.toObject()).suggestedFileName(),
                 fileName);
        if (shown == page)
            screenshot(&s.panel, u"resources-html"_s);
        if (shown.startsWith(u"(1,234"_s))
            screenshot(&s.panel, u"resources-blob"_s);
    }

    void saveWritesTheWholeContents_data()
    {
        QTest::addColumn<QJsonArray>("contents");
        QTest::addColumn<QByteArray>("written");
        const QString longText = QString(300'000, u'x') + u"end"_s;
        QTest::newRow("a long text is written whole though the view shows a part")
            << QJsonArray{textBlock(u"demo://big"_s, u"text/plain"_s, longText)}
            << longText.toUtf8();
        QTest::newRow("a text is written as UTF-8")
            << QJsonArray{textBlock(u"demo://u"_s, u"text/plain"_s, u"Ærø — 🙂"_s)}
            << u"Ærø — 🙂"_s.toUtf8();
        const QByteArray bytes = someBytes(4096);
        QTest::newRow("a blob is written as its decoded bytes")
            << QJsonArray{blobBlock(u"demo://bin"_s, u"application/octet-stream"_s, bytes)}
            << bytes;
        const QJsonArray several{textBlock(u"demo://a"_s, u"text/plain"_s, u"first"_s),
                                 textBlock(u"demo://b"_s, u"text/plain"_s, u"second"_s)};
        QTest::newRow("several blocks are written as the answer's JSON")
            << several
            << QJsonDocument(readOf(several).result.toObject()).toJson(QJsonDocument::Indented);
    }

    void saveWritesTheWholeContents()
    {
        QFETCH(QJsonArray, contents);
        QFETCH(QByteArray, written);
        Shown s;
        s.read(u"a"_s, readOf(contents));
        if (written.size() > TextDisplay::MaxShownChars) {
            const QString shown = s.text()->toPlainText();
            QVERIFY(shown.size() < written.size());
            QVERIFY2(shown.contains(u"more characters not shown"_s) &&
                         shown.contains(u"in Save…"_s),
                     qPrintable(shown.right(200)));
            screenshot(&s.panel, u"resources-long-text"_s);
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(u"saved"_s);
        QVERIFY(s.panel.saveContents(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), written);
    }

    // Save… opens a file dialog without blocking, named after the resource, and writes the
    // read that was shown when it was pressed.
    void saveAsksWhereWithTheResourcesName()
    {
        Shown s;
        s.read(u"a"_s, readOf({textBlock(u"demo://readme"_s, u"text/markdown"_s, u"# Demo"_s)}));
        QTest::mouseClick(s.save(), Qt::LeftButton);
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = s.panel.findChild<QFileDialog *>(u"saveResourceDialog"_s)) &&
                    dialog->isVisible());
        QVERIFY(dialog->selectedFiles().value(0).endsWith(u"/readme.md"_s));
        // Another read meanwhile does not change what this Save writes.
        s.read(u"a"_s, readOf({textBlock(u"demo://other"_s, u"text/plain"_s, u"other"_s)}));
        QTemporaryDir dir;
        const QString path = dir.filePath(u"readme.md"_s);
        Q_EMIT dialog->fileSelected(path); // what choosing the file does
        dialog->close();
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("# Demo"));
    }

    void theReadShownIsTheSelectedServers()
    {
        Shown s;
        s.read(u"a"_s, readOf({textBlock(u"demo://notes/1"_s, u"text/plain"_s, u"on a"_s)}));
        s.panel.showServer(u"b"_s);
        QCOMPARE(s.text()->toPlainText(), QString());
        QVERIFY(!s.save()->isEnabled());
        QTemporaryDir dir;
        QVERIFY(!s.panel.saveContents(dir.filePath(u"none"_s)));

        CallOutcome failed;
        failed.error = Error(Error::Kind::Remote, u"resource not found: demo://x"_s);
        s.read(u"b"_s, failed);
        QVERIFY2(s.text()->toPlainText().contains(u"resource not found"_s),
                 qPrintable(s.text()->toPlainText()));
        QVERIFY(!s.save()->isEnabled());

        s.panel.showServer(u"a"_s);
        QCOMPARE(s.text()->toPlainText(), u"on a"_s);
        QVERIFY(s.save()->isEnabled());
        QVERIFY(s.panel.saveContents(dir.filePath(u"a"_s)));
    }
};

QTEST_MAIN(TestResourcesPanel)
#include "tst_resourcespanel.moc"

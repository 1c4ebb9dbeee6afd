// SPDX-License-Identifier: MIT
// The real window driven like a user would, against sonde-demo-server over stdio: connect,
// list tools, fill the generated form, call, see the answer; progress on the slow tool; an
// injected expire-after-dispatch before a write shows the uncertain banner and a new
// generation; the breaker tripped and reset from its buttons; an elicitation answered in its
// dialog; the transcript exported and read back line by line.
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverviewstore.h"
#include "application/timeline/timelinelayout.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "secrets/memorysecretstore.h"
#include "servers/healthpanel.h"
#include "servers/sessionpanel.h"
#include "testpaths.h"
#include "timeline/timelinewidget.h"
#include "tools/promptspanel.h"
#include "tools/resourcespanel.h"
#include "tools/toolanswerview.h"
#include "tools/toolspanel.h"
#include "transcript/transcriptpanel.h"
#include "window/mainwindow.h"
#include "window/textdisplay.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMainWindow : public QObject
{
    Q_OBJECT

    // Stands for the keyring: it outlives a window, as the keyring outlives a run.
    MemorySecretStore m_keyring;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;

    static QByteArray fileContents(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // A workspace as an older Sonde wrote it: one HTTP server "remote" with one header.
    static void writeRemoteServer(const QString &ini, const QByteArray &header,
                                  const QByteArray &value)
    {
        QSettings old(ini, QSettings::IniFormat);
        old.setValue(u"workspace/servers"_s,
                     QByteArray("{\"mcpServers\":{\"remote\":{\"headers\":{\"" + header + "\":\"" +
                                value +
                                "\"},\"type\":\"http\",\"url\":\"http://127.0.0.1:9/mcp\"}}}"));
    }

    // Loads `ini` into `window` and waits for the secret store's answers.
    static bool loadAndWait(MainWindow &window, const QString &ini)
    {
        QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
        QSettings settings(ini, QSettings::IniFormat);
        window.loadWorkspace(settings);
        return loaded.size() == 1 || loaded.wait(5000);
    }

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    QPushButton *button(QWidget *in, const QString &name) const
    {
        return in->findChild<QPushButton *>(name);
    }

    // Replaces what the selected tool's form field `name` holds, typing as a user does.
    void fill(const QString &name, const QString &text)
    {
        auto *field = tools()->findChild<QLineEdit *>(u"field:"_s + name);
        QVERIFY2(field, qPrintable(name));
        field->clear();
        QTest::keyClicks(field, text);
    }

    void call(const QString &tool)
    {
        QVERIFY(tools()->selectTool(tool));
        QTRY_VERIFY(button(tools(), u"callButton"_s)->isEnabled());
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_window = std::make_unique<MainWindow>(*m_host);
        m_window->setSecretStore(&m_keyring);
        ServerConfig demo;
        demo.name = u"demo"_s;
        demo.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        // These tests drive the session faults (expiry after dispatch): the handshake era's.
        // The window in the 2026-07-28 era: tst_sessionpanel, tst_mainwindowworkspace.
        demo.era = ServerConfig::Era::Initialize;
        m_window->addServer(demo);
        m_window->show();
        m_window->tabs()->setCurrentWidget(tools());
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount() >= 19, 10000);
    }

    void cleanup()
    {
        m_window.reset();
        m_host.reset();
    }

    void aToolIsCalledFromItsGeneratedForm()
    {
        QVERIFY(tools()->selectTool(u"echo"_s));
        auto *message = tools()->findChild<QLineEdit *>(u"field:message"_s);
        QVERIFY(message);
        QTest::keyClicks(message, u"hello from the form"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: hello from the form"_s, 10000);
        QVERIFY(tools()->bannerText().isEmpty());
    }

    void aFiveMegabyteOneLineAnswerIsShownAScreenfulAtOnceMoreOnDemandAndSavedWhole()
    {
        // Uncapped, QPlainTextEdit needs minutes to lay out a wrapped line this long.
        constexpr qint64 bytes = 5 * 1024 * 1024;
        QVERIFY(tools()->selectTool(u"big-answer"_s));
        auto *size = tools()->findChild<QLineEdit *>(u"field:bytes"_s);
        QVERIFY(size);
        size->clear();
        QTest::keyClicks(size, QString::number(bytes));
        QElapsedTimer shown;
        shown.start();
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"xxxx"_s), 30000);
        qInfo("a %lld-byte one-line answer was on screen after %lld ms", bytes, shown.elapsed());
        // A screenful first: laying out a 256 Ki-character line stalls the window.
        QString text = tools()->resultText();
        QVERIFY2(text.size() < ToolAnswerView::FirstScreenChars + 1000,
                 qPrintable(QString::number(text.size())));
        QVERIFY2(text.contains(u"not shown"_s) && text.contains(u"Show more"_s) &&
                     text.contains(u"Save answer"_s),
                 qPrintable(text.right(300)));
        auto *view = tools()->findChild<QPlainTextEdit *>(u"resultText"_s);
        QCOMPARE(view->lineWrapMode(), QPlainTextEdit::NoWrap);
        // The JSON tab shows the answer's whole structure, its long string cut and marked.
        auto *json = tools()->findChild<QPlainTextEdit *>(u"resultJson"_s);
        const QString jsonShown = json->toPlainText();
        QVERIFY2(jsonShown.size() < ToolAnswerView::FirstScreenChars + 1000,
                 qPrintable(QString::number(jsonShown.size())));
        QVERIFY2(jsonShown.contains(u"\"content\""_s), qPrintable(jsonShown.left(300)));
        auto *more = tools()->findChild<QLabel *>(u"answerMore"_s);
        QVERIFY(more && more->isVisible());
        QVERIFY2(more->text().contains(u"5.0 MiB"_s) && more->text().contains(u"Show more"_s),
                 qPrintable(more->text()));
        if (qEnvironmentVariableIsSet("SONDE_SCREENSHOT_DIR"))
            m_window->grab().save(qEnvironmentVariable("SONDE_SCREENSHOT_DIR") +
                                  u"/big-answer.png"_s);
        // The link asks for the rest a view can show.
        Q_EMIT more->linkActivated(u"more"_s);
        text = tools()->resultText();
        QVERIFY2(text.size() > ToolAnswerView::FirstScreenChars * 4 &&
                     text.size() < TextDisplay::MaxShownChars + 1000,
                 qPrintable(QString::number(text.size())));
        QVERIFY(!text.contains(u"Show more"_s));
        QVERIFY(!more->text().contains(u"Show more"_s));
        QVERIFY(json->toPlainText().size() > ToolAnswerView::FirstScreenChars * 4);
        QVERIFY(json->toPlainText().contains(u"…"_s));
        // Save answer writes all of it.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"answer.json"_s);
        QVERIFY(button(tools(), u"saveAnswer"_s)->isEnabled());
        QVERIFY(tools()->saveAnswer(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject saved = QJsonDocument::fromJson(f.readAll()).object();
        const QString whole = saved.value("result"_L1)
                                  .toObject()
                                  .value("content"_L1)
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value("text"_L1)
                                  .toString();
        QCOMPARE(whole.size(), bytes);
        // Its frame in the transcript is shown as it came, capped too, without being parsed.
        TranscriptStore *store = m_window->transcriptStore();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int i = 0; i < store->size(); ++i)
                    if (store->entry(i).isResponse && store->entry(i).pairedRow >= 0 &&
                        store->entry(store->entry(i).pairedRow).method == "tools/call"_L1)
                        row = i;
                return row >= 0;
            }(),
            5000);
        m_window->tabs()->setCurrentWidget(m_window->transcriptPanel());
        QVERIFY(m_window->transcriptPanel()->selectStoreRow(row));
        auto *detail =
            m_window->transcriptPanel()->findChild<QPlainTextEdit *>(u"transcriptDetail"_s);
        QVERIFY2(detail->toPlainText().size() < TextDisplay::MaxShownChars + 1000,
                 qPrintable(QString::number(detail->toPlainText().size())));
        QVERIFY(detail->toPlainText().contains(u"exported transcript"_s));
        m_window->tabs()->setCurrentWidget(tools());
        // A short answer afterwards is shown whole and wrapped again.
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(tools()->findChild<QLineEdit *>(u"field:message"_s), u"short"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: short"_s, 10000);
        QCOMPARE(view->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        // Another server's big-answer shows nothing of it, bar included; back on this one it
        // is shown again, bar and all.
        ServerConfig other;
        other.name = u"other"_s;
        other.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        other.era = ServerConfig::Era::Initialize;
        m_window->addServer(other);
        m_window->selectServer(u"other"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->selectTool(u"big-answer"_s), 10000);
        auto *bar = tools()->findChild<QLabel *>(u"answerMore"_s);
        QVERIFY(tools()->resultText().isEmpty());
        QVERIFY(!bar->isVisible());
        QVERIFY(!button(tools(), u"closeAnswer"_s)->isEnabled());
        const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            m_window->grab().save(shots + u"/big-answer-other-server.png"_s);
        m_window->selectServer(u"demo"_s);
        // The big answer is kept with its tool until the user closes it; then it is gone, from
        // the view and from what the window keeps (back on the tool, nothing).
        QVERIFY(tools()->selectTool(u"big-answer"_s));
        QVERIFY(tools()->resultText().startsWith(u"xxxx"_s));
        QVERIFY(bar->isVisible() && bar->text().contains(u"5.0 MiB"_s));
        if (!shots.isEmpty())
            m_window->grab().save(shots + u"/big-answer-back.png"_s);
        QPushButton *close = button(tools(), u"closeAnswer"_s);
        QVERIFY(close->isEnabled());
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(tools()->resultText().isEmpty());
        QVERIFY(!close->isEnabled());
        QVERIFY(!button(tools(), u"saveAnswer"_s)->isEnabled());
        QVERIFY(!tools()->findChild<QLabel *>(u"answerMore"_s)->isVisible());
        QVERIFY(!m_window->viewStore()->toolAnswer(u"demo"_s, u"big-answer"_s));
        QVERIFY(tools()->selectTool(u"echo"_s));
        QCOMPARE(tools()->resultText(), u"Echo: short"_s);
        QVERIFY(close->isEnabled());
        QVERIFY(tools()->selectTool(u"big-answer"_s));
        QVERIFY(tools()->resultText().isEmpty());
    }

    void theProgressBarMovesOnTheSlowTool()
    {
        QVERIFY(tools()->selectTool(u"slow-task"_s));
        fill(u"duration_ms"_s, u"1500"_s);
        fill(u"steps"_s, u"5"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        auto *bar = tools()->findChild<QProgressBar *>(u"progressBar"_s);
        // Between the first and the last step the bar shows a partial value.
        QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() == 1000 && bar->value() > 0 && bar->value() < 1000,
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().contains(u"slow task finished"_s), 10000);
        QCOMPARE(bar->value(), 1000);
    }

    // The engine sends notifications across in batches; the Log still shows every one, in
    // the order the server sent them.
    void aFloodsLogLinesReachTheLogTabInOrder()
    {
        QVERIFY(tools()->selectTool(u"flood"_s));
        fill(u"rate"_s, u"2000"_s);
        fill(u"seconds"_s, u"0.3"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().contains(u"flooded 600 notifications"_s),
                                 10000);
        auto *log = m_window->findChild<QPlainTextEdit *>(u"logView"_s);
        QVERIFY(log);
        m_window->tabs()->setCurrentWidget(log);
        QTRY_VERIFY(log->toPlainText().contains(u"[info] flood 600/600"_s));
        static const QRegularExpression floodLine(
            u"demo notifications/message \\[info\\] flood (\\d+)/600$"_s);
        int last = 0;
        for (const QString &line : log->toPlainText().split(u'\n')) {
            if (const QRegularExpressionMatch m = floodLine.match(line); m.hasMatch()) {
                QCOMPARE(m.captured(1).toInt(), last + 1);
                last = m.captured(1).toInt();
            }
        }
        QCOMPARE(last, 600);
        const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            m_window->grab().save(shots + u"/mainwindow-flood-log.png"_s);
        // The Log is the window's, every line naming its server: selecting another server
        // keeps demo's lines, and that server's own lines come after them under its name.
        ServerConfig other;
        other.name = u"other"_s;
        other.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        other.era = ServerConfig::Era::Initialize;
        m_window->addServer(other);
        m_window->selectServer(u"other"_s);
        m_window->tabs()->setCurrentWidget(tools());
        QTRY_VERIFY_WITH_TIMEOUT(tools()->selectTool(u"flood"_s), 10000);
        fill(u"rate"_s, u"100"_s);
        fill(u"seconds"_s, u"0.1"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().contains(u"flooded 10 notifications"_s),
                                 10000);
        m_window->tabs()->setCurrentWidget(log);
        QTRY_VERIFY(
            log->toPlainText().contains(u"other notifications/message [info] flood 10/10"_s));
        QVERIFY(log->toPlainText().contains(u"demo notifications/message [info] flood 600/600"_s));
        if (!shots.isEmpty())
            m_window->grab().save(shots + u"/mainwindow-flood-log-other.png"_s);
    }

    void replacingTheServerUnderARunningCallEndsThatCallAndTheNextOneRuns()
    {
        // The window has one call in flight at a time: a call whose answer never came (its
        // server was replaced or removed) used to block every later call.
        QVERIFY(tools()->selectTool(u"slow-task"_s));
        auto *duration = tools()->findChild<QLineEdit *>(u"field:duration_ms"_s);
        duration->clear();
        QTest::keyClicks(duration, u"30000"_s);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        auto *bar = tools()->findChild<QProgressBar *>(u"progressBar"_s);
        QTRY_VERIFY_WITH_TIMEOUT(bar->value() > 0, 10000); // running on the server
        ServerConfig demo;
        demo.name = u"demo"_s;
        demo.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        demo.era = ServerConfig::Era::Initialize; // as the window's demo below was made
        m_window->addServer(demo);                // what Edit does with the same name
        // The running call ends with its session, cancelled, and says so.
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"the session was closed"_s, 10000);
        QCOMPARE(tools()->bannerText(), u"Cancelled — the session was closed"_s);
        QTRY_VERIFY_WITH_TIMEOUT(
            tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount() >= 19, 10000);
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(tools()->findChild<QLineEdit *>(u"field:message"_s), u"after the edit"_s);
        QTRY_VERIFY_WITH_TIMEOUT(button(tools(), u"callButton"_s)->isEnabled(), 10000);
        QTest::mouseClick(button(tools(), u"callButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: after the edit"_s, 10000);
    }

    void anExpiryAfterDispatchShowsTheUncertainBannerAndANewGeneration()
    {
        QCOMPARE(m_window->sessionPanel()->shownGeneration(), 1);
        QTest::mouseClick(button(m_window->healthPanel(), u"fault:expire-after-dispatch"_s),
                          Qt::LeftButton);
        call(u"increment-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->bannerText().startsWith(u"Outcome uncertain"_s), 10000);
        QVERIFY(tools()->bannerText().contains(u"may or may not have taken effect"_s));
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 2, 10000);
    }

    void theBreakerIsTrippedAndResetFromItsButtons()
    {
        QTest::mouseClick(button(m_window->healthPanel(), u"breakerTrip"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->healthPanel()->breakerText().startsWith(u"OPEN"_s),
                                 5000);
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->bannerText().startsWith(u"Not sent"_s), 5000);
        QTest::mouseClick(button(m_window->healthPanel(), u"breakerReset"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->healthPanel()->breakerText(), u"CLOSED"_s, 5000);
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"counter = "_s), 5000);
    }

    // Faults, as a user sees them: a killed idle server comes back by itself instead of
    // staying "failed" until a call; an armed "kill during next call" the kill took with it is
    // said; a delay stays armed and says so, its menu entry names its value, and the delayed
    // call takes at least that long.
    void faultsSayWhatIsArmedAndWhatWasDropped()
    {
        HealthPanel *health = m_window->healthPanel();
        QCOMPARE(health->armedText(), u"No fault armed."_s);
        QTest::mouseClick(button(health, u"fault:kill-during-next-call"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(health->armedText().contains(u"kill-during-next-call"_s), 5000);
        QTest::mouseClick(button(health, u"fault:kill-process"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(health->armedText().contains(u"Dropped"_s), 5000);
        QVERIFY2(health->armedText().contains(u"kill-during-next-call"_s),
                 qPrintable(health->armedText()));
        // Back by itself, no call needed.
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 2, 10000);

        // By name: the Health tab also holds a proxied session's page, with its own delay.
        auto *delay = health->findChild<QSpinBox *>(u"faultDelayMs"_s);
        QVERIFY(delay);
        delay->setValue(600);
        QAction *menuEntry = nullptr;
        for (QAction *a : m_window->findChildren<QAction *>())
            if (a->objectName() == "action:fault:delay"_L1)
                menuEntry = a;
        QVERIFY(menuEntry);
        QVERIFY2(menuEntry->text().contains(u"600 ms"_s), qPrintable(menuEntry->text()));
        QTest::mouseClick(button(health, u"fault:delay"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(health->armedText().contains(u"delay 600 ms"_s), 5000);
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty())
            health->grab().save(shots + u"/health-armed.png"_s);
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"counter = "_s), 10000);
        const QString elapsed = tools()->findChild<QLabel *>(u"elapsedLabel"_s)->text();
        QVERIFY2(elapsed.endsWith(u" ms"_s) && elapsed.chopped(3).toInt() >= 600,
                 qPrintable(elapsed));
        button(health, u"fault:clear"_s)->click();
        QTRY_COMPARE_WITH_TIMEOUT(health->armedText(), u"No fault armed."_s, 10000);
    }

    void anImportedInputIsAskedForAsAPasswordAndNeverPassedLiterally()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(u"mcp.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"inputs\": [{\"type\": \"promptString\", \"id\": \"api-key\", \"description\": "
                "\"API key\", \"password\": true}],\n"
                " // JSONC, as VS Code writes it\n"
                " \"servers\": {\"gh\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\",\n"
                "                      \"headers\": {\"Authorization\": \"Bearer "
                "${input:api-key}\"}},}}");
        f.close();
        // Asked in a dialog opened with open(): the import goes on once it is answered.
        QVERIFY(m_window->importConfigFile(f.fileName(), false));
        QInputDialog *d = nullptr;
        QTRY_VERIFY((d = m_window->findChild<QInputDialog *>(u"importInput"_s)) && d->isVisible());
        QCOMPARE(d->textEchoMode(), QLineEdit::Password);
        QVERIFY(d->labelText().contains(u"API key"_s));
        QCOMPARE(m_window->serverStore()->indexOf(u"gh"_s), -1); // not before the answer
        d->setTextValue(u"s3cret"_s);
        d->accept();
        QTRY_VERIFY(m_window->serverStore()->indexOf(u"gh"_s) >= 0);
        ServerConfig gh;
        for (int i = 0; i < m_window->serverStore()->size(); ++i)
            if (m_window->serverStore()->config(i).name == "gh"_L1)
                gh = m_window->serverStore()->config(i);
        QCOMPARE(gh.headers.value(0).second, QByteArray("Bearer s3cret"));
    }

    void twoInputsOfOneServerAreAskedOneAfterTheOther()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(u"mcp.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"inputs\": [{\"type\": \"promptString\", \"id\": \"first\"},\n"
                "            {\"type\": \"promptString\", \"id\": \"second\"}],\n"
                " \"servers\": {\"two\": {\"command\": \"/bin/true\",\n"
                "   \"env\": {\"A\": \"${input:first}\", \"B\": \"${input:second}\"}}}}");
        f.close();
        QVERIFY(m_window->importConfigFile(f.fileName(), false));
        for (const QString &value : {u"one"_s, u"two"_s}) {
            QInputDialog *d = nullptr;
            QTRY_VERIFY((d = m_window->findChild<QInputDialog *>(u"importInput"_s)) &&
                        d->isVisible() && d->textValue().isEmpty());
            d->setTextValue(value);
            d->accept();
            QTRY_VERIFY(!d->isVisible() || d->textValue() != value);
        }
        QTRY_VERIFY(m_window->serverStore()->indexOf(u"two"_s) >= 0);
        const ServerConfig two =
            m_window->serverStore()->config(m_window->serverStore()->indexOf(u"two"_s));
        QCOMPARE(two.environment.value(u"A"_s), u"one"_s);
        QCOMPARE(two.environment.value(u"B"_s), u"two"_s);
    }

    void anElicitationIsAnsweredInItsDialogWithTheDefaultsFilledIn()
    {
        call(u"ask-user"_s);
        QDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = m_window->findChild<QDialog *>(u"elicitationDialog"_s)) != nullptr, 10000);
        auto *name = dialog->findChild<QLineEdit *>(u"field:name"_s);
        QVERIFY(name);
        QCOMPARE(name->text(), u"Ada"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"elicitationAccept"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"action=accept"_s), 10000);
        QVERIFY(tools()->resultText().contains(u"\"name\":\"Ada\""_s));
    }

    void aResourceIsReadAndATemplateIsFilledIn()
    {
        ResourcesPanel *panel = m_window->resourcesPanel();
        m_window->tabs()->setCurrentWidget(panel);
        auto *resources = panel->findChild<QListView *>(u"resourceList"_s);
        QTRY_VERIFY_WITH_TIMEOUT(resources->model()->rowCount() == 13, 10000); // all three pages
        const QModelIndexList hits =
            resources->model()->match(resources->model()->index(0, 0), Qt::DisplayRole,
                                      u"demo://notes/3"_s, 1, Qt::MatchContains);
        QCOMPARE(hits.size(), 1);
        resources->setCurrentIndex(hits.first());
        QCOMPARE(panel->uri(), u"demo://notes/3"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"readButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(panel->contentText(), u"This is note 3."_s, 5000);
        auto *templates = panel->findChild<QListView *>(u"templateList"_s);
        QTRY_COMPARE_WITH_TIMEOUT(templates->model()->rowCount(), 1, 5000);
        templates->setCurrentIndex(templates->model()->index(0, 0));
        auto *id = panel->findChild<QLineEdit *>(u"field:id"_s);
        QVERIFY(id);
        id->setFocus();
        QTest::keyClicks(id, u"1"_s);
        // The server completes the parameter: ids starting with "1".
        QTest::mouseClick(panel->findChild<QPushButton *>(u"templateSuggestButton"_s),
                          Qt::LeftButton);
        auto *suggestions = panel->findChild<QListView *>(u"templateSuggestions"_s);
        QTRY_COMPARE_WITH_TIMEOUT(suggestions->model()->rowCount(), 2, 5000); // 1 and 10
        id->clear();
        QTest::keyClicks(id, u"7"_s);
        QCOMPARE(panel->uri(), u"demo://notes/7"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"readButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(panel->contentText(), u"This is note 7."_s, 5000);
    }

    void aPromptIsFetchedWithAnArgumentTheServerCompleted()
    {
        PromptsPanel *panel = m_window->promptsPanel();
        m_window->tabs()->setCurrentWidget(panel);
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectPrompt(u"greeting"_s), 10000);
        QTest::keyClicks(panel->findChild<QLineEdit *>(u"field:name"_s), u"Ada"_s);
        auto *style = panel->findChild<QLineEdit *>(u"field:style"_s);
        QVERIFY(style);
        style->setFocus();
        QTest::keyClicks(style, u"p"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"suggestButton"_s), Qt::LeftButton);
        auto *suggestions = panel->findChild<QListView *>(u"suggestions"_s);
        QTRY_COMPARE_WITH_TIMEOUT(suggestions->model()->rowCount(), 1, 5000);
        QCOMPARE(suggestions->model()->index(0, 0).data().toString(), u"pirate"_s);
        Q_EMIT suggestions->activated(suggestions->model()->index(0, 0));
        QCOMPARE(style->text(), u"pirate"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"getPromptButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel->messagesText().contains(u"Greet Ada in a pirate style."_s),
                                 5000);
    }

    void clickingTheTimelineJumpsToTheMessageInTheTranscript()
    {
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"counter = "_s), 5000);
        TranscriptStore *store = m_window->transcriptStore();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int i = 0; i < store->size(); ++i)
                    if (store->entry(i).method == "tools/call"_L1 && store->entry(i).isRequest)
                        row = i;
                return row >= 0;
            }(),
            5000);
        // The timeline lays the call out as a span whose activation names its request row.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->timeline()->timelineLayout()->find(row).type !=
                                     TimelineLayout::HitType::None,
                                 5000);
        Q_EMIT m_window->timeline()->activated(row);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->transcriptPanel());
        QCOMPARE(m_window->transcriptPanel()->currentStoreRow(), row);
    }

    void theWorkspaceAndLayoutSurviveARestart()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        ServerConfig http;
        http.name = u"remote"_s;
        http.route = ServerConfig::Route::StreamableHttp;
        http.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        http.headers = {{"Authorization", "Bearer x-0123456789"}};
        http.breakerThreshold = 5;
        http.pingIntervalMs = 15000;
        m_window->addServer(http, {u"/tmp"_s}, false);
        m_window->tabs()->setCurrentIndex(2);
        {
            QSettings settings(ini, QSettings::IniFormat);
            m_window->saveWorkspace(settings);
        }
        // The settings file holds a reference to the keyring's entry, never the value.
        QVERIFY(!fileContents(ini).contains("x-0123456789"));
        QVERIFY(fileContents(ini).contains("sonde-secret:header/remote/Authorization"));
        CoreHost host2;
        MainWindow restored(host2);
        restored.setSecretStore(&m_keyring);
        QVERIFY(loadAndWait(restored, ini)); // after the keyring's answer
        ServerStore *servers = restored.serverStore();
        QCOMPARE(servers->names(), (QStringList{u"demo"_s, u"remote"_s}));
        const ServerConfig r = servers->config(servers->indexOf(u"remote"_s));
        QCOMPARE(r.route, ServerConfig::Route::StreamableHttp);
        QCOMPARE(r.url, http.url);
        QCOMPARE(r.headers.value(0).second, QByteArray("Bearer x-0123456789"));
        QCOMPARE(r.breakerThreshold, 5);
        QCOMPARE(r.pingIntervalMs, 15000);
        const ServerConfig d = servers->config(servers->indexOf(u"demo"_s));
        QCOMPARE(d.program, QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        QCOMPARE(restored.tabs()->currentIndex(), 2);
        QSignalSpy down(&host2, &CoreHost::shutdownFinished);
        host2.shutdown();
        QVERIFY(down.wait(5000));
    }

    void plaintextHeadersOfAnOlderSondeMoveToTheKeyringOnFirstStart()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        // What Sonde wrote before the keyring: the header's value in the INI file.
        writeRemoteServer(ini, "X-API-Key", "k-plain-4711");
        QVERIFY(fileContents(ini).contains("k-plain-4711"));
        CoreHost host2;
        MainWindow restored(host2);
        restored.setSecretStore(&m_keyring);
        QVERIFY(loadAndWait(restored, ini));
        ServerStore *servers = restored.serverStore();
        QCOMPARE(servers->config(servers->indexOf(u"remote"_s)).headers.value(0).second,
                 QByteArray("k-plain-4711"));
        QVERIFY(!fileContents(ini).contains("k-plain-4711"));
        std::optional<QByteArray> kept;
        m_keyring.read(u"header/remote/X-API-Key"_s,
                       [&](std::optional<QByteArray> v, QString) { kept = v; });
        QTRY_COMPARE(kept, std::optional<QByteArray>("k-plain-4711"));
        QSignalSpy down(&host2, &CoreHost::shutdownFinished);
        host2.shutdown();
        QVERIFY(down.wait(5000));
    }

    void aSecretTheStoreCannotGiveLeavesItsServerUnconnectedAndSaysWhy()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        writeRemoteServer(ini, "Authorization", "sonde-secret:header/remote/Authorization");
        MemorySecretStore empty; // a run without the keyring that holds it
        CoreHost host2;
        MainWindow restored(host2);
        restored.setSecretStore(&empty);
        QVERIFY(loadAndWait(restored, ini));
        ServerStore *servers = restored.serverStore();
        const int row = servers->indexOf(u"remote"_s);
        QVERIFY(row >= 0);
        QCOMPARE(servers->snapshot(row).state, SessionSnapshot::State::Idle);
        // Said whole in the note above the panels; the status line points at it.
        const QString note = restored.findChild<QLabel *>(u"firstRunHint"_s)->text();
        QVERIFY2(note.contains(u"remote"_s) && note.contains(u"Authorization"_s) &&
                     note.contains(u"enter it again"_s),
                 qPrintable(note));
        QVERIFY2(restored.statusBar()->currentMessage().contains(u"Secrets to enter again"_s),
                 qPrintable(restored.statusBar()->currentMessage()));
        QSignalSpy down(&host2, &CoreHost::shutdownFinished);
        host2.shutdown();
        QVERIFY(down.wait(5000));
    }

    void theTranscriptExportsAndEveryLineParsesBack()
    {
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().startsWith(u"counter = "_s), 5000);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        QCOMPARE(m_window->transcriptPanel()->exportTo(path, u"jsonl"_s), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        int lines = 0, calls = 0;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            QVERIFY2(doc.isObject(), line.constData());
            ++lines;
            calls += doc.object().value("msg"_L1).toObject().value("method"_L1).toString() ==
                     "tools/call"_L1;
        }
        QVERIFY(lines > 5);
        QCOMPARE(calls, 1);
        QCOMPARE(m_window->transcriptPanel()->exportTo(dir.filePath(u"t.md"_s), u"md"_s),
                 QString());
    }

    // The export knew no configured value: the starting event carried the server's env in
    // the clear, the GitHub token under a name no pattern caught.
    void anExportHoldsNoConfiguredEnvValueUnlessAskedTo()
    {
        const QString token = u"ghp_S0ndeGuiT0ken0123456789abcdefABCDEF"_s;
        const QString plain = u"opaque-gui-credential-77"_s;
        ServerConfig c;
        c.name = u"withenv"_s;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        c.environment = {{u"GITHUB_TOKEN"_s, token}, {u"PLAIN_SETTING"_s, plain}};
        m_window->addServer(c);
        const TranscriptStore *store = m_window->transcriptStore();
        const auto readyFor = [store](const QString &server) {
            for (int i = 0; i < store->size(); ++i)
                if (store->event(i).server == server && store->event(i).event == "ready"_L1)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(readyFor(c.name), 10000);
        QTemporaryDir dir;
        const auto exported = [&](const QString &format) {
            const QString path = dir.filePath(u"t."_s + format);
            const QString error = m_window->transcriptPanel()->exportTo(path, format);
            QFile f(path);
            return error.isEmpty() && f.open(QIODevice::ReadOnly) ? f.readAll() : error.toUtf8();
        };
        for (const QString &format : {u"jsonl"_s, u"md"_s}) {
            const QByteArray all = exported(format);
            QVERIFY2(all.contains("GITHUB_TOKEN=[REDACTED]"), all.constData());
            QVERIFY2(!all.contains(token.toUtf8()), qPrintable(format));
            QVERIFY2(!all.contains(plain.toUtf8()), qPrintable(format));
        }
        auto *include = m_window->transcriptPanel()->findChild<QCheckBox *>(u"exportSecrets"_s);
        QVERIFY(include);
        include->setChecked(true);
        const QByteArray kept = exported(u"jsonl"_s);
        QVERIFY(kept.contains(token.toUtf8()));
        QVERIFY(kept.contains(plain.toUtf8()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"

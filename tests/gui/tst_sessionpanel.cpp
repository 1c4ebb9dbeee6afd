// SPDX-License-Identifier: MIT
// The Session panel of a modern (2026-07-28) connection: the era and why, the version, no
// session id (and never a stale one from an earlier legacy generation), the listen stream
// with what was granted and what was asked for but not, the server's identity and the
// cache hints; and in the window, each server's own values when switching between them.
// The snapshots are built as the core emits them.
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "engine/corehost.h"
#include "servers/sessionpanel.h"
#include "window/mainwindow.h"

#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::ListenStatus)

namespace {

QJsonObject filter(bool tools, bool prompts, bool resources, const QStringList &uris)
{
    QJsonObject f{{"toolsListChanged"_L1, tools},
                  {"promptsListChanged"_L1, prompts},
                  {"resourcesListChanged"_L1, resources}};
    if (!uris.isEmpty())
        f.insert("resourceSubscriptions"_L1, QJsonArray::fromStringList(uris));
    return f;
}

SessionSnapshot ready(const QString &server, ServerConfig::Era era, const QString &reason,
                      const QString &version)
{
    SessionSnapshot s;
    s.server = server;
    s.state = SessionSnapshot::State::Ready;
    s.generation = 1;
    s.route = ServerConfig::Route::StreamableHttp;
    s.era = era;
    s.eraReason = reason;
    s.protocolVersion = version;
    return s;
}

SessionSnapshot modern(const QString &server)
{
    SessionSnapshot s = ready(server, ServerConfig::Era::Rev20260728,
                              u"server/discover offered 2026-07-28"_s, u"2026-07-28"_s);
    s.sessionless = true;
    s.serverInfo = {{"name"_L1, "everything-v2"_L1}, {"version"_L1, "2.0.1"_L1}};
    s.subscriptions = ListenStatus{.state = ListenStatus::State::Acknowledged,
                                   .id = 3,
                                   .requested = filter(true, true, true, {u"demo://counter"_s}),
                                   .granted = filter(true, false, true, {})};
    const auto hint = [](qint64 ttl, const QString &scope) {
        return CacheHint{.fetchedMs = 1796131880000, .ttlMs = ttl, .cacheScope = scope};
    };
    s.cacheHints = {{u"tools/list"_s, hint(60000, u"private"_s)},
                    {u"prompts/list"_s, hint(0, u"public"_s)}};
    return s;
}

SessionSnapshot legacy(const QString &server, const QString &id)
{
    SessionSnapshot s =
        ready(server, ServerConfig::Era::Initialize,
              u"server/discover answered HTTP 404, so the initialize handshake was used"_s,
              u"2025-11-25"_s);
    s.sessionId = id;
    s.serverInfo = {{"name"_L1, "server-everything"_L1}, {"version"_L1, "1.4.0"_L1}};
    s.transport.getStream = u"open"_s;
    return s;
}

QString text(QWidget *panel, const QString &label)
{
    auto *l = panel->findChild<QLabel *>(label);
    return l ? l->text() : u"(no label %1)"_s.arg(label);
}

// For looking at: SONDE_SCREENSHOT_DIR=dir saves the widget as dir/<name>.png.
void grab(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
    // Rows shown or hidden since the last pass are laid out first, as before a paint.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (!dir.isEmpty())
        w->grab().save(dir + u'/' + name + u".png"_s);
}

bool shown(QWidget *panel, const QString &label)
{
    auto *l = panel->findChild<QLabel *>(label);
    return l && l->isVisibleTo(panel);
}

} // namespace

class TestSessionPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aModernSessionShowsItsEraVersionAndNoSession()
    {
        ServerViewStore store;
        SessionPanel panel(&store);
        panel.setSnapshot(modern(u"v2"_s));
        QCOMPARE(text(&panel, u"eraLabel"_s), u"2026-07-28 — server/discover offered 2026-07-28"_s);
        QCOMPARE(text(&panel, u"protocolLabel"_s), u"2026-07-28"_s);
        QCOMPARE(panel.sessionIdText(), u"none — 2026-07-28 has no sessions"_s);
        QVERIFY(!panel.findChild<QToolButton *>(u"copySessionId"_s)->isEnabled());
        // No ping in 2026-07-28, and the log level is not sent with logging/setLevel.
        QVERIFY(!panel.findChild<QPushButton *>(u"pingButton"_s)->isEnabled());
        QVERIFY(panel.findChild<QWidget *>(u"logLevel"_s)->toolTip().contains(u"_meta"_s));
        QCOMPARE(text(&panel, u"serverInfoLabel"_s), u"everything-v2 2.0.1"_s);
        // The listen stream replaces the GET stream.
        QVERIFY(shown(&panel, u"listenLabel"_s));
        QVERIFY(!shown(&panel, u"getStreamLabel"_s));
        QVERIFY(shown(&panel, u"cacheHintsLabel"_s));
        const QString hints = text(&panel, u"cacheHintsLabel"_s);
        QVERIFY2(hints.contains(u"tools/list: fresh for 1 min, private"_s), qPrintable(hints));
        QVERIFY2(hints.contains(u"prompts/list: stale at once, public"_s), qPrintable(hints));
    }

    void aLegacySessionAfterAModernOneShowsItsIdAndBack()
    {
        ServerViewStore store;
        SessionPanel panel(&store);
        panel.setSnapshot(legacy(u"s"_s, u"3f1c-session"_s));
        QCOMPARE(panel.sessionIdText(), u"3f1c-session"_s);
        QVERIFY(panel.findChild<QToolButton *>(u"copySessionId"_s)->isEnabled());
        QVERIFY(panel.findChild<QPushButton *>(u"pingButton"_s)->isEnabled());
        QVERIFY(text(&panel, u"eraLabel"_s).startsWith(u"initialize — server/discover answered"_s));
        QVERIFY(shown(&panel, u"getStreamLabel"_s));
        QVERIFY(!shown(&panel, u"listenLabel"_s));
        QVERIFY(!shown(&panel, u"cacheHintsLabel"_s));
        // A modern snapshot that still carried an id (from an earlier generation) shows none.
        SessionSnapshot m = modern(u"s"_s);
        m.sessionId = u"3f1c-session"_s;
        panel.setSnapshot(m);
        QVERIFY(!panel.sessionIdText().contains(u"3f1c"_s));
        QVERIFY(!panel.findChild<QToolButton *>(u"copySessionId"_s)->isEnabled());
    }

    void anUndecidedEraSaysSo()
    {
        ServerViewStore store;
        SessionPanel panel(&store);
        SessionSnapshot s;
        s.server = u"x"_s;
        s.state = SessionSnapshot::State::Starting;
        s.route = ServerConfig::Route::Stdio;
        panel.setSnapshot(s);
        QCOMPARE(text(&panel, u"eraLabel"_s), u"–"_s);
        QCOMPARE(text(&panel, u"serverInfoLabel"_s), u"–"_s);
    }

    void theListenStreamSaysWhatWasGranted_data()
    {
        using State = ListenStatus::State;
        QTest::addColumn<ListenStatus>("subscriptions");
        QTest::addColumn<QStringList>("says");
        QTest::addColumn<QStringList>("doesNotSay");
        const QJsonObject asked = filter(true, true, false, {u"demo://counter"_s});
        QTest::newRow("an open stream waits for its acknowledgement and says what it asked")
            << ListenStatus{.state = State::Open, .id = 7, .requested = asked}
            << QStringList{u"open (listen #7)"_s, u"waiting for the server's acknowledgement"_s,
                           u"tool list changes"_s, u"prompt list changes"_s,
                           u"updates of demo://counter"_s}
            << QStringList{u"resource list changes"_s};
        QTest::newRow("an acknowledged stream names what was asked but not granted")
            << ListenStatus{.state = State::Acknowledged,
                            .id = 7,
                            .requested = asked,
                            .granted = filter(true, false, false, {})}
            << QStringList{u"acknowledged (listen #7): granted tool list changes"_s,
                           u"asked for but not granted: prompt list changes, updates of "
                           "demo://counter"_s}
            << QStringList{};
        QTest::newRow("a stream granted all it asked for names nothing refused")
            << ListenStatus{.state = State::Acknowledged,
                            .id = 7,
                            .requested = asked,
                            .granted = asked}
            << QStringList{u"granted tool list changes, prompt list changes, updates of "
                           "demo://counter"_s}
            << QStringList{u"not granted"_s};
        QTest::newRow("an ended stream says the server ended it")
            << ListenStatus{.state = State::Ended, .id = 7, .requested = asked}
            << QStringList{u"ended by the server (listen #7)"_s} << QStringList{};
        QTest::newRow("a dropped stream says it listens again")
            << ListenStatus{.state = State::Dropped, .id = 7}
            << QStringList{u"dropped (listen #7); listening again"_s} << QStringList{};
        QTest::newRow("no stream is not open")
            << ListenStatus{} << QStringList{u"not open"_s} << QStringList{};
    }
    void theListenStreamSaysWhatWasGranted()
    {
        QFETCH(ListenStatus, subscriptions);
        QFETCH(QStringList, says);
        QFETCH(QStringList, doesNotSay);
        ServerViewStore store;
        SessionPanel panel(&store);
        SessionSnapshot s = modern(u"v2"_s);
        s.subscriptions = subscriptions;
        panel.setSnapshot(s);
        const QString listen = text(&panel, u"listenLabel"_s);
        for (const QString &words : says)
            QVERIFY2(listen.contains(words), qPrintable(listen));
        for (const QString &words : doesNotSay)
            QVERIFY2(!listen.contains(words), qPrintable(listen));
    }

    // In the window: each server's snapshot shows when it is selected, nothing of the other.
    void switchingServersShowsEachOnesOwnValues()
    {
        CoreHost host;
        MainWindow window(host);
        for (const QString &name : {u"2026-07-28"_s, u"initialize"_s}) {
            ServerConfig c;
            c.name = name;
            c.route = ServerConfig::Route::StreamableHttp;
            c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
            window.addServer(c, {}, false);
        }
        window.resize(1280, 800);
        window.show();
        window.tabs()->setCurrentWidget(window.sessionPanel());
        // The engine's first (idle) snapshots come first; the constructed ones replace them.
        QTRY_COMPARE(window.serverStore()->snapshot(1).server, u"initialize"_s);
        QTRY_COMPARE(window.serverStore()->snapshot(0).server, u"2026-07-28"_s);
        Q_EMIT host.sessionChanged(modern(u"2026-07-28"_s));
        Q_EMIT host.sessionChanged(legacy(u"initialize"_s, u"77aa-session"_s));
        SessionPanel *panel = window.sessionPanel();

        window.selectServer(u"initialize"_s);
        QTRY_COMPARE(panel->sessionIdText(), u"77aa-session"_s);
        QCOMPARE(text(panel, u"protocolLabel"_s), u"2025-11-25"_s);
        QVERIFY(text(panel, u"eraLabel"_s).startsWith(u"initialize"_s));
        QCOMPARE(text(panel, u"serverInfoLabel"_s), u"server-everything 1.4.0"_s);

        window.selectServer(u"2026-07-28"_s);
        QTRY_COMPARE(panel->sessionIdText(), u"none — 2026-07-28 has no sessions"_s);
        QCOMPARE(text(panel, u"protocolLabel"_s), u"2026-07-28"_s);
        QCOMPARE(text(panel, u"serverInfoLabel"_s), u"everything-v2 2.0.1"_s);
        QVERIFY(text(panel, u"listenLabel"_s).contains(u"not granted: prompt list changes"_s));
        grab(&window, u"session-modern"_s);

        window.selectServer(u"initialize"_s);
        QTRY_COMPARE(panel->sessionIdText(), u"77aa-session"_s);
        grab(&window, u"session-legacy"_s);
        QVERIFY(!shown(panel, u"listenLabel"_s));
        QVERIFY(!shown(panel, u"cacheHintsLabel"_s));

        QSignalSpy down(&window, &MainWindow::shutdownFinished);
        window.close();
        QTRY_COMPARE_WITH_TIMEOUT(down.size(), 1, MainWindow::ShutdownBoundMs + 2000);
    }
};

QTEST_MAIN(TestSessionPanel)
#include "tst_sessionpanel.moc"

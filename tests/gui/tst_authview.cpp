// SPDX-License-Identifier: MIT
// The window's Authorization view. AuthState values are fed one after the other, as the
// engine emits them during a flow (each carrying the steps so far), and the view fills row
// by row: the steps in order, a failed step's error, the token's scopes and expiry (on a
// ManualClock), the buttons and the actions they ask for, the browser opened once per flow
// through an injected opener. In the window, each server's own flow on its tab, and Sign in
// going to CoreHost::auth with its answer shown.
#include "application/auth/authstatestore.h"
#include "application/auth/authstepmodel.h"
#include "auth/authpanel.h"
#include "authflowdata.h"
#include "demohttpfixture.h"
#include "engine/corehost.h"
#include "testpaths.h"
#include "util/clock.h"
#include "window/darkpalette.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using Status = AuthState::Status;

namespace {

using AuthFlowData::flow;
using AuthFlowData::Start;

// With a scope of two words: the space must be shown as the browser gets it (%20).
const QUrl AuthorizeUrl(u"http://127.0.0.1:3000/authorize?response_type=code&client_id=sonde-7&"
                        "code_challenge=E9Melhoa2Ow&code_challenge_method=S256&state=af0ifjsld&"
                        "scope=mcp:read mcp:write"_s);

AuthState state(const QString &server, Status status, const QList<AuthStep> &steps)
{
    AuthState s;
    s.server = server;
    s.status = status;
    s.steps = steps;
    s.resource = u"http://127.0.0.1:3000/mcp"_s;
    if (steps.size() > 1)
        s.issuer = u"http://127.0.0.1:3000/"_s;
    if (steps.size() > 2) {
        s.clientId = u"sonde-7"_s;
        s.clientIdSource = u"dynamic-registration"_s;
    }
    if (status == Status::AwaitingUser)
        s.authorizationUrl = AuthorizeUrl;
    s.secretStore = u"keyring"_s;
    return s;
}

AuthState authorized(const QString &server, qint64 expiresAtMs)
{
    AuthState s = state(server, Status::Authorized, flow());
    s.scopes = {u"mcp:read"_s, u"mcp:write"_s};
    s.expiresAtMs = expiresAtMs;
    s.hasRefreshToken = true;
    return s;
}

AuthState failedAt(const QString &server, int okSteps, const QString &error)
{
    QList<AuthStep> steps = flow().mid(0, okSteps + 1);
    steps.last().ok = false;
    steps.last().status = 400;
    steps.last().error = error;
    AuthState s = state(server, Status::Failed, steps);
    s.error = error;
    return s;
}

ServerConfig http(const QString &name)
{
    ServerConfig c;
    c.name = name;
    c.route = ServerConfig::Route::StreamableHttp;
    c.url = QUrl(u"http://127.0.0.1:9/mcp"_s); // nothing listens: nothing connects
    return c;
}

ServerConfig stdio(const QString &name)
{
    ServerConfig c;
    c.name = name;
    c.program = u"/bin/true"_s;
    return c;
}

QString text(QWidget *w, const QString &name)
{
    if (auto *l = w->findChild<QLabel *>(name))
        return l->text();
    if (auto *e = w->findChild<QLineEdit *>(name))
        return e->text();
    return u"(nothing named %1)"_s.arg(name);
}

bool shown(QWidget *w, const QString &name)
{
    auto *c = w->findChild<QWidget *>(name);
    return c && c->isVisibleTo(w);
}

QPushButton *button(QWidget *w, const QString &name)
{
    return w->findChild<QPushButton *>(name);
}

QTableView *table(QWidget *w)
{
    return w->findChild<QTableView *>(u"authSteps"_s);
}

QString cell(QWidget *w, int row, int column)
{
    return table(w)->model()->index(row, column).data().toString();
}

QString absolute(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"yyyy-MM-dd HH:mm:ss"_s);
}

// For looking at: SONDE_SCREENSHOT_DIR=dir saves the widget as dir/<name>.png.
void grab(QWidget *w, const QString &name)
{
    // The table's columns fit their contents on a timer: as before a paint.
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
        w->grab().save(dir + u'/' + name + u".png"_s);
}

// The panel on its own, with a store, a manual clock and a counting opener.
struct Panel
{
    std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(Start);
    AuthStateStore store;
    AuthPanel panel{&store, clock};
    QList<QUrl> opened;
    bool openerWorks = true;

    explicit Panel(const ServerConfig &config = http(u"a"_s))
    {
        panel.setUrlOpener([this](const QUrl &url) {
            opened.append(url);
            return openerWorks;
        });
        store.addServer(config.name);
        panel.showServer(config.name, config);
        panel.resize(1000, 700);
        panel.show();
    }
};

} // namespace

class TestAuthView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aServerThatNeverAskedShowsAShortEmptyState()
    {
        Panel p;
        QVERIFY(shown(&p.panel, u"authEmpty"_s));
        QVERIFY2(text(&p.panel, u"authEmpty"_s).contains(u"has not asked for authorization"_s),
                 qPrintable(text(&p.panel, u"authEmpty"_s)));
        QVERIFY(!shown(&p.panel, u"authSteps"_s));
        QVERIFY(!shown(&p.panel, u"authToken"_s));
        // Signing in before the server asks is still possible; there is nothing to refresh.
        QVERIFY(button(&p.panel, u"authSignIn"_s)->isEnabled());
        QVERIFY(!button(&p.panel, u"authRefresh"_s)->isEnabled());
        QVERIFY(!button(&p.panel, u"authSignOut"_s)->isEnabled());
        // The first step of a flow replaces the empty state with the table.
        p.store.update(state(u"a"_s, Status::Discovering, flow().mid(0, 1)));
        QVERIFY(!shown(&p.panel, u"authEmpty"_s));
        QVERIFY(shown(&p.panel, u"authSteps"_s));
    }

    void aServerOverStdioHasNoAuthorizationToOffer()
    {
        Panel p(stdio(u"a"_s));
        QVERIFY(shown(&p.panel, u"authEmpty"_s));
        QVERIFY2(text(&p.panel, u"authEmpty"_s).contains(u"stdio"_s),
                 qPrintable(text(&p.panel, u"authEmpty"_s)));
        QVERIFY(!button(&p.panel, u"authSignIn"_s)->isEnabled());
    }

    void theStepsFillRowByRowAsTheFlowGoes()
    {
        Panel p;
        const QList<AuthStep> all = flow();
        const QList<Status> statuses = {Status::Discovering, Status::Discovering,
                                        Status::Discovering, Status::AwaitingUser,
                                        Status::Authorized};
        const QStringList words = {u"Signing in…"_s, u"Signing in…"_s, u"Signing in…"_s,
                                   u"Waiting for the browser"_s, u"✓ Authorized"_s};
        for (int n = 1; n <= all.size(); ++n) {
            p.store.update(state(u"a"_s, statuses.at(n - 1), all.mid(0, n)));
            QCOMPARE(table(&p.panel)->model()->rowCount(), n);
            QCOMPARE(cell(&p.panel, n - 1, AuthStepModel::Step),
                     u"✓ "_s + AuthStepModel::stepTitle(all.at(n - 1).name));
            QCOMPARE(text(&p.panel, u"authStatus"_s), words.at(n - 1));
        }
        // Earlier rows stay where they were.
        QCOMPARE(cell(&p.panel, 0, AuthStepModel::Request),
                 u"GET http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"_s);
        QCOMPARE(cell(&p.panel, 3, AuthStepModel::Result),
                 u"mcp:read — scope from WWW-Authenticate"_s);
        QCOMPARE(cell(&p.panel, 4, AuthStepModel::Result),
                 u"client_secret_basic — token endpoint auth: as advertised"_s);
        QCOMPARE(cell(&p.panel, 4, AuthStepModel::Status), u"200"_s);
        QCOMPARE(cell(&p.panel, 4, AuthStepModel::Time), u"9 ms"_s);
        QVERIFY(!shown(&p.panel, u"authError"_s));
    }

    void aFailedStepShowsItsErrorInWords()
    {
        Panel p;
        const QString why = u"the token endpoint answered 400 invalid_client: client "
                            "authentication failed"_s;
        p.store.update(failedAt(u"a"_s, 4, why));
        QCOMPARE(table(&p.panel)->model()->rowCount(), 5);
        QCOMPARE(cell(&p.panel, 4, AuthStepModel::Step), u"✗ Token"_s);
        QCOMPARE(cell(&p.panel, 4, AuthStepModel::Result), why);
        QCOMPARE(text(&p.panel, u"authStatus"_s), u"✗ Sign-in failed"_s);
        QVERIFY(shown(&p.panel, u"authError"_s));
        QVERIFY2(text(&p.panel, u"authError"_s).contains(why),
                 qPrintable(text(&p.panel, u"authError"_s)));
        // In the error colour, and marked in text as well.
        QVERIFY(text(&p.panel, u"authError"_s).startsWith(u"✗"_s));
        auto *error = p.panel.findChild<QLabel *>(u"authError"_s);
        QCOMPARE(error->palette().color(QPalette::WindowText), AuthStepModel::errorColor());
        grab(&p.panel, u"auth-failed"_s);
        // Still that colour on the dark palette (it reads 3:1 on both, tst_authstepmodel).
        DarkPalette::apply();
        QCOMPARE(error->palette().color(QPalette::WindowText), AuthStepModel::errorColor());
        grab(&p.panel, u"auth-failed-dark"_s);
        DarkPalette::restore();
    }

    void theTokenShowsScopesExpiryAndWhereItLives()
    {
        Panel p;
        const qint64 expires = Start + 3'600'000;
        p.store.update(authorized(u"a"_s, expires));
        QVERIFY(shown(&p.panel, u"authToken"_s));
        QVERIFY(shown(&p.panel, u"authScopes"_s));
        QCOMPARE(text(&p.panel, u"authScopes"_s), u"mcp:read mcp:write"_s);
        QCOMPARE(text(&p.panel, u"authExpiry"_s), u"in 60 min (%1)"_s.arg(absolute(expires)));
        QCOMPARE(text(&p.panel, u"authRefreshToken"_s), u"held: Refresh gets a new access token"_s);
        QCOMPARE(text(&p.panel, u"authClient"_s), u"sonde-7 — dynamic registration (RFC 7591)"_s);
        QCOMPARE(text(&p.panel, u"authIssuer"_s), u"http://127.0.0.1:3000/"_s);
        QCOMPARE(text(&p.panel, u"authResource"_s), u"http://127.0.0.1:3000/mcp"_s);
        QCOMPARE(text(&p.panel, u"authStore"_s), u"system keyring"_s);
        // The relative part moves with the clock; the absolute one does not.
        p.clock->advance(30 * 60'000);
        QCOMPARE(text(&p.panel, u"authExpiry"_s), u"in 30 min (%1)"_s.arg(absolute(expires)));
        p.clock->advance(30 * 60'000 - 45'000);
        QCOMPARE(text(&p.panel, u"authExpiry"_s), u"in 45 s (%1)"_s.arg(absolute(expires)));
        p.clock->advance(45'000 + 2 * 3'600'000 + 5 * 60'000);
        QCOMPARE(text(&p.panel, u"authExpiry"_s),
                 u"expired 2 h 5 min ago (%1)"_s.arg(absolute(expires)));

        AuthState s = authorized(u"a"_s, 0);
        s.hasRefreshToken = false;
        s.scopes.clear();
        p.store.update(s);
        QCOMPARE(text(&p.panel, u"authExpiry"_s), u"no expiry given"_s);
        QCOMPARE(text(&p.panel, u"authScopes"_s), u"none granted"_s);
        QVERIFY(text(&p.panel, u"authRefreshToken"_s).startsWith(u"none"_s));
    }

    // Where the tokens live and where the client id came from, each in words.
    void theSourcesReadAsWords_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("words");
        const QString dcr = u"dynamic-registration"_s;
        QTest::newRow("tokens in the keyring")
            << u"keyring"_s << dcr << u"authStore"_s << u"system keyring"_s;
        QTest::newRow("tokens in memory when no keyring answered")
            << u"memory"_s << dcr << u"authStore"_s << u"memory only: no keyring answered"_s;
        QTest::newRow("tokens in the encrypted file the user chose")
            << u"encrypted-file"_s << dcr << u"authStore"_s << u"encrypted file"_s;
        QTest::newRow("a pre-registered client")
            << u"keyring"_s << u"pre-registered"_s << u"authClient"_s
            << u"sonde-7 — pre-registered"_s;
        QTest::newRow("a client from a metadata document")
            << u"keyring"_s << u"cimd"_s << u"authClient"_s
            << u"sonde-7 — Client ID Metadata Document (CIMD)"_s;
        QTest::newRow("a dynamically registered client")
            << u"keyring"_s << dcr << u"authClient"_s
            << u"sonde-7 — dynamic registration (RFC 7591)"_s;
    }
    void theSourcesReadAsWords()
    {
        QFETCH(QString, store);
        QFETCH(QString, source);
        QFETCH(QString, label);
        QFETCH(QString, words);
        Panel p;
        AuthState s = authorized(u"a"_s, 0);
        s.secretStore = store;
        s.clientIdSource = source;
        p.store.update(s);
        QCOMPARE(text(&p.panel, label), words);
    }

    void theStatusReadsAsWords_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("words");
        QTest::newRow("authorized") << int(Status::Authorized) << u"✓ Authorized"_s;
        QTest::newRow("needs sign-in again")
            << int(Status::NeedsReauth) << u"✗ Needs sign-in again"_s;
        QTest::newRow("waiting for the browser")
            << int(Status::AwaitingUser) << u"Waiting for the browser"_s;
        QTest::newRow("a flow running") << int(Status::Discovering) << u"Signing in…"_s;
        QTest::newRow("a failed flow") << int(Status::Failed) << u"✗ Sign-in failed"_s;
        QTest::newRow("signed out") << int(Status::SignedOut) << u"Signed out"_s;
    }
    void theStatusReadsAsWords()
    {
        QFETCH(int, status);
        QFETCH(QString, words);
        Panel p;
        p.store.update(state(u"a"_s, Status(status), flow().mid(0, 2)));
        QCOMPARE(text(&p.panel, u"authStatus"_s), words);
    }

    void theButtonsAreThereWhenTheyMakeSense_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("refreshToken");
        QTest::addColumn<bool>("signIn");
        QTest::addColumn<bool>("refresh");
        QTest::addColumn<bool>("signOut");
        QTest::newRow("an authorized server with a refresh token can refresh and sign out")
            << int(Status::Authorized) << true << true << true << true;
        QTest::newRow("an authorized server without a refresh token cannot refresh")
            << int(Status::Authorized) << false << true << false << true;
        QTest::newRow("while the flow runs nothing starts another")
            << int(Status::Discovering) << false << false << false << false;
        QTest::newRow("while the browser is out nothing starts another")
            << int(Status::AwaitingUser) << false << false << false << false;
        QTest::newRow("a server that needs sign-in again cannot refresh but can sign out")
            << int(Status::NeedsReauth) << true << true << false << true;
        QTest::newRow("a failed flow can be tried again, with nothing to sign out of")
            << int(Status::Failed) << false << true << false << false;
        QTest::newRow("a signed-out server can sign in again")
            << int(Status::SignedOut) << false << true << false << false;
    }
    void theButtonsAreThereWhenTheyMakeSense()
    {
        QFETCH(int, status);
        QFETCH(bool, refreshToken);
        QFETCH(bool, signIn);
        QFETCH(bool, refresh);
        QFETCH(bool, signOut);
        Panel p;
        AuthState s = state(u"a"_s, Status(status), flow().mid(0, 3));
        s.hasRefreshToken = refreshToken;
        p.store.update(s);
        QCOMPARE(button(&p.panel, u"authSignIn"_s)->isEnabled(), signIn);
        QCOMPARE(button(&p.panel, u"authRefresh"_s)->isEnabled(), refresh);
        QCOMPARE(button(&p.panel, u"authSignOut"_s)->isEnabled(), signOut);
    }

    void eachButtonAsksForItsAction_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("action");
        QTest::newRow("Sign in logs in") << u"authSignIn"_s << u"login"_s;
        QTest::newRow("Refresh refreshes") << u"authRefresh"_s << u"refresh"_s;
        QTest::newRow("Sign out signs out") << u"authSignOut"_s << u"sign-out"_s;
    }
    void eachButtonAsksForItsAction()
    {
        QFETCH(QString, name);
        QFETCH(QString, action);
        Panel p;
        p.store.update(authorized(u"a"_s, Start + 60'000));
        QSignalSpy asked(&p.panel, &AuthPanel::authRequested);
        QTest::mouseClick(button(&p.panel, name), Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(authActionName(asked.first().at(0).value<AuthAction>()), action);
        // While its answer is awaited the same button does not send it twice.
        p.store.addPending(1, u"a"_s, *authActionFromName(action));
        QVERIFY(!button(&p.panel, name)->isEnabled());
        CallOutcome o;
        o.ticket = 1;
        o.server = u"a"_s;
        o.method = u"sonde/auth"_s;
        p.store.settle(o);
        QVERIFY(button(&p.panel, name)->isEnabled());
    }

    void aCommandThatFailedSaysSoEvenWithoutAFlow()
    {
        Panel p;
        p.store.addPending(3, u"a"_s, AuthAction::Login);
        CallOutcome o;
        o.ticket = 3;
        o.server = u"a"_s;
        o.method = u"sonde/auth"_s;
        o.error = Error::protocol(u"authorization is not wired into the engine yet (login)"_s);
        p.store.settle(o);
        // Still the empty state (the server never asked), with the answer under it.
        QVERIFY(shown(&p.panel, u"authEmpty"_s));
        QVERIFY(shown(&p.panel, u"authCommandError"_s));
        QCOMPARE(text(&p.panel, u"authCommandError"_s),
                 u"✗ Sign in failed: authorization is not wired into the engine yet (login)"_s);
        QVERIFY(button(&p.panel, u"authSignIn"_s)->isEnabled());
        // The next command clears it.
        p.store.addPending(4, u"a"_s, AuthAction::Login);
        QVERIFY(!shown(&p.panel, u"authCommandError"_s));
    }

    void waitingForTheBrowserShowsTheAddressAndOpensItOncePerFlow()
    {
        Panel p;
        p.store.update(state(u"a"_s, Status::Discovering, flow().mid(0, 3)));
        QVERIFY(!shown(&p.panel, u"authWaiting"_s));
        QVERIFY(p.opened.isEmpty());
        p.store.update(state(u"a"_s, Status::AwaitingUser, flow().mid(0, 3)));
        QVERIFY(shown(&p.panel, u"authWaiting"_s));
        QCOMPARE(text(&p.panel, u"authUrl"_s), AuthorizeUrl.toString(QUrl::FullyEncoded));
        QVERIFY2(!text(&p.panel, u"authUrl"_s).contains(u' '), "an unencoded space in scope");
        // No token yet: the client's side only.
        QVERIFY(!shown(&p.panel, u"authScopes"_s));
        QVERIFY(!shown(&p.panel, u"authExpiry"_s));
        QVERIFY(shown(&p.panel, u"authClient"_s));
        auto *url = p.panel.findChild<QLineEdit *>(u"authUrl"_s);
        QVERIFY(url->isReadOnly()); // selectable, not editable
        QCOMPARE(p.opened, QList<QUrl>{AuthorizeUrl});
        // The engine's later updates of the same wait do not open another tab.
        p.store.update(state(u"a"_s, Status::AwaitingUser, flow().mid(0, 3)));
        p.store.update(state(u"a"_s, Status::AwaitingUser, flow().mid(0, 4)));
        QCOMPARE(p.opened.size(), 1);
        QTest::mouseClick(button(&p.panel, u"authCopyUrl"_s), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), AuthorizeUrl.toString(QUrl::FullyEncoded));
        // By hand it opens again, as often as asked.
        QTest::mouseClick(button(&p.panel, u"authOpenUrl"_s), Qt::LeftButton);
        QCOMPARE(p.opened.size(), 2);
        grab(&p.panel, u"auth-waiting"_s);
        p.store.update(authorized(u"a"_s, Start + 3'600'000));
        QVERIFY(!shown(&p.panel, u"authWaiting"_s));
        // The next flow (a step-up) opens it once more.
        p.store.update(state(u"a"_s, Status::Discovering, {}));
        AuthState stepUp = state(u"a"_s, Status::AwaitingUser, {});
        stepUp.authorizationUrl = QUrl(u"http://127.0.0.1:3000/authorize?state=second"_s);
        p.store.update(stepUp);
        QCOMPARE(p.opened.size(), 3);
        QCOMPARE(p.opened.last(), stepUp.authorizationUrl);
    }

    void aBrowserThatDidNotOpenIsSaid()
    {
        Panel p;
        p.openerWorks = false;
        p.store.update(state(u"a"_s, Status::AwaitingUser, flow().mid(0, 3)));
        QCOMPARE(p.opened.size(), 1);
        QVERIFY2(text(&p.panel, u"authWaitingText"_s).contains(u"No browser could be opened"_s),
                 qPrintable(text(&p.panel, u"authWaitingText"_s)));
    }

    void aFlowOfAServerNotShownStillOpensItsBrowserButShowsNothingHere()
    {
        Panel p;
        p.store.addServer(u"b"_s);
        p.store.update(state(u"b"_s, Status::AwaitingUser, flow().mid(0, 3)));
        QCOMPARE(p.opened.size(), 1);
        QVERIFY(shown(&p.panel, u"authEmpty"_s));
        QVERIFY(!shown(&p.panel, u"authWaiting"_s));
        p.panel.showServer(u"b"_s, http(u"b"_s));
        QVERIFY(shown(&p.panel, u"authWaiting"_s));
        QCOMPARE(table(&p.panel)->model()->rowCount(), 3);
        QCOMPARE(p.opened.size(), 1); // showing it is not a new flow
    }

    // The window: a tab per server, each server's own flow, Sign in through CoreHost::auth.
    void eachServerShowsItsOwnFlowInTheWindow()
    {
        CoreHost host;
        MainWindow window(host);
        QList<QUrl> opened;
        window.authPanel()->setUrlOpener([&opened](const QUrl &url) {
            opened.append(url);
            return true;
        });
        window.addServer(http(u"a"_s), {}, false);
        window.addServer(http(u"b"_s), {}, false);
        window.addServer(stdio(u"c"_s), {}, false);
        window.show();
        QTabWidget *tabs = window.tabs();
        int at = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == "Authorization"_L1)
                at = i;
        QVERIFY(at >= 0);
        tabs->setCurrentIndex(at);
        QWidget *panel = window.authPanel();
        QCOMPARE(tabs->currentWidget(), panel);

        // As the engine emits them: a's flow step by step, b's failure, while a is shown.
        window.selectServer(u"a"_s);
        const QList<AuthStep> all = flow();
        for (int n = 1; n < all.size(); ++n) {
            Q_EMIT host.authChanged(
                state(u"a"_s, n < 4 ? Status::Discovering : Status::AwaitingUser, all.mid(0, n)));
            QCOMPARE(table(panel)->model()->rowCount(), n);
        }
        Q_EMIT host.authChanged(
            authorized(u"a"_s, QDateTime::currentMSecsSinceEpoch() + 3'600'000));
        QCOMPARE(opened, QList<QUrl>{AuthorizeUrl});
        Q_EMIT host.authChanged(failedAt(u"b"_s, 1,
                                         u"the issuer in the metadata is "
                                         "http://evil.example/, not the one asked"_s));
        QCOMPARE(table(panel)->model()->rowCount(), 5);
        QCOMPARE(text(panel, u"authStatus"_s), u"✓ Authorized"_s);
        QVERIFY(!shown(panel, u"authError"_s));
        grab(&window, u"auth-window"_s);

        window.selectServer(u"b"_s);
        QCOMPARE(table(panel)->model()->rowCount(), 2);
        QCOMPARE(cell(panel, 1, AuthStepModel::Step), u"✗ Authorization server metadata"_s);
        QCOMPARE(text(panel, u"authStatus"_s), u"✗ Sign-in failed"_s);
        QVERIFY(text(panel, u"authError"_s).contains(u"evil.example"_s));
        QVERIFY(!text(panel, u"authScopes"_s).contains(u"mcp:write"_s));
        grab(&window, u"auth-window-failed"_s);

        window.selectServer(u"c"_s);
        QVERIFY(shown(panel, u"authEmpty"_s));
        QVERIFY(text(panel, u"authEmpty"_s).contains(u"stdio"_s));

        window.selectServer(u"a"_s);
        QCOMPARE(table(panel)->model()->rowCount(), 5);
        QCOMPARE(text(panel, u"authScopes"_s), u"mcp:read mcp:write"_s);

        // A removed server leaves nothing, and what its engine still sends is dropped.
        window.removeServer(u"b"_s);
        QVERIFY(!window.authStore()->holds(u"b"_s));
        Q_EMIT host.authChanged(failedAt(u"b"_s, 0, u"late"_s));
        QVERIFY(!window.authStore()->holds(u"b"_s));

        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }

    // The whole flow through the real engine against the demo server's protected endpoint
    // (the authorize URL followed headless, as the benchmark does): the tab of the server that
    // asked fills with its steps and the token, and the other server's tab stays its own.
    void aRealFlowAgainstTheProtectedDemoFillsThatServersTab()
    {
        SondeTest::DemoHttpServer demo;
        QVERIFY2(demo.startWith({u"--auth"_s}), "sonde-demo-server --http --auth did not start");
        const QString url = demo.url();
        CoreHost host;
        MainWindow window(host);
        int opened = 0;
        window.authPanel()->setUrlOpener([&](const QUrl &) { return ++opened > 0; });
        ServerConfig protectedDemo = http(u"protected"_s);
        protectedDemo.url = QUrl(url);
        protectedDemo.era = ServerConfig::Era::Initialize;
        protectedDemo.auth.agent = ServerConfig::Auth::Agent::Headless;
        window.addServer(http(u"other"_s), {}, false);
        window.addServer(protectedDemo);
        window.resize(1200, 760);
        window.show();
        window.selectServer(u"protected"_s);
        window.tabs()->setCurrentWidget(window.authPanel());
        AuthPanel *panel = window.authPanel();
        QTRY_VERIFY_WITH_TIMEOUT(text(panel, u"authStatus"_s).contains(u"Authorized"_s), 15000);
        // PRM, the AS choice, AS metadata, client identity, registration, authorize, token.
        QVERIFY2(table(panel)->model()->rowCount() >= 6,
                 qPrintable(QString::number(table(panel)->model()->rowCount())));
        QVERIFY(text(panel, u"authScopes"_s).contains(u"mcp:read"_s));
        QVERIFY(!shown(panel, u"authError"_s));
        QCOMPARE(opened, 0); // headless: no browser is opened for it
        for (int row = 0; row < table(panel)->model()->rowCount(); ++row)
            QVERIFY2(cell(panel, row, AuthStepModel::Status) != u"no answer"_s,
                     qPrintable(cell(panel, row, AuthStepModel::Step)));
        grab(&window, u"auth-real-demo"_s);

        window.selectServer(u"other"_s);
        QVERIFY(shown(panel, u"authEmpty"_s));
        grab(&window, u"auth-real-demo-other"_s);
        window.selectServer(u"protected"_s);
        QVERIFY(!shown(panel, u"authEmpty"_s));
        QVERIFY(table(panel)->model()->rowCount() >= 6);

        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }

    void signInGoesToTheEngineAndItsAnswerIsShown()
    {
        CoreHost host;
        MainWindow window(host);
        window.authPanel()->setUrlOpener([](const QUrl &) { return true; });
        window.addServer(http(u"a"_s), {}, false);
        window.addServer(http(u"b"_s), {}, false);
        window.show();
        window.selectServer(u"a"_s);
        window.tabs()->setCurrentWidget(window.authPanel());
        QSignalSpy answered(&host, &CoreHost::callFinished);
        QTest::mouseClick(button(window.authPanel(), u"authSignIn"_s), Qt::LeftButton);
        QVERIFY(answered.wait(5000));
        const auto o = answered.first().at(0).value<CallOutcome>();
        QCOMPARE(o.method, u"sonde/auth"_s);
        QCOMPARE(o.server, u"a"_s);
        // Nothing listens at this server's URL: the flow fails at its first step, and the
        // failure is said on this server's tab, once: as the flow's error when the engine's
        // state carries it, else as the command's.
        QVERIFY(!o.ok());
        const QString said = o.error.message();
        QTRY_VERIFY((shown(window.authPanel(), u"authCommandError"_s) &&
                     text(window.authPanel(), u"authCommandError"_s).contains(said)) ||
                    (shown(window.authPanel(), u"authError"_s) &&
                     said.contains(text(window.authPanel(), u"authError"_s).mid(2))));
        QVERIFY(window.statusBar()->currentMessage().contains(o.error.message()));
        // Not on the other server's tab.
        window.selectServer(u"b"_s);
        QVERIFY(!shown(window.authPanel(), u"authCommandError"_s));
        QVERIFY(!shown(window.authPanel(), u"authError"_s));
        grab(&window, u"auth-window-command-error"_s);

        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }
};

QTEST_MAIN(TestAuthView)
#include "tst_authview.moc"

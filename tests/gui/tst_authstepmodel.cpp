// SPDX-License-Identifier: MIT
// The Authorization view's data, headless: AuthStepModel (the last flow's steps as rows, in
// order, growing as the engine records them) under QAbstractItemModelTester, and
// AuthStateStore (each server's last AuthState, the sonde/auth tickets, and the one browser
// opening per flow). The states are built as the engine emits them: the same list of steps,
// one longer each time.
#include "application/auth/authstatestore.h"
#include "application/auth/authstepmodel.h"
#include "authflowdata.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using AuthFlowData::flow;
using AuthFlowData::step;

AuthStep failed(AuthStep s, const QString &error)
{
    s.ok = false;
    s.error = error;
    return s;
}

AuthState state(const QString &server, AuthState::Status status, const QList<AuthStep> &steps,
                const QUrl &url = {})
{
    AuthState s;
    s.server = server;
    s.status = status;
    s.steps = steps;
    s.authorizationUrl = url;
    return s;
}

double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QString cell(const AuthStepModel &model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

} // namespace

class TestAuthStepModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void stepsBecomeRowsInTheOrderTheFlowRecordsThem()
    {
        AuthStepModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const QList<AuthStep> all = flow();
        for (int n = 1; n <= all.size(); ++n) {
            model.setSteps(all.mid(0, n));
            QCOMPARE(model.rowCount(), n);
            // Each update adds the one new row at the end; the rows before stay.
            QCOMPARE(inserted.count(), n);
            QCOMPARE(inserted.last().at(1).toInt(), n - 1);
            QCOMPARE(inserted.last().at(2).toInt(), n - 1);
        }
        // The same steps again (a state change that recorded no step) change nothing.
        model.setSteps(all);
        QCOMPARE(inserted.count(), all.size());
        QCOMPARE(reset.count(), 0);

        QCOMPARE(cell(model, 0, AuthStepModel::Step), u"✓ Protected resource metadata"_s);
        QCOMPARE(cell(model, 0, AuthStepModel::Request),
                 u"GET http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"_s);
        QCOMPARE(cell(model, 0, AuthStepModel::Status), u"200"_s);
        QCOMPARE(cell(model, 0, AuthStepModel::Result),
                 u"http://127.0.0.1:3000/ — the only authorization server listed"_s);
        QCOMPARE(cell(model, 0, AuthStepModel::Time), u"9 ms"_s);
        QCOMPARE(cell(model, 2, AuthStepModel::Step), u"✓ Client identity"_s);
        QCOMPARE(model.index(4, 0).data(AuthStepModel::ChosenRole).toString(),
                 u"client_secret_basic"_s);
        QCOMPARE(model.index(4, 0).data(AuthStepModel::WhyRole).toString(),
                 u"token endpoint auth: as advertised"_s);
        QCOMPARE(cell(model, 4, AuthStepModel::Result),
                 u"client_secret_basic — token endpoint auth: as advertised"_s);
        QCOMPARE(cell(model, 4, AuthStepModel::Result, Qt::ToolTipRole),
                 u"Chosen: client_secret_basic\nWhy: token endpoint auth: as advertised"_s);
        // A step that only fetched shows no result.
        QVERIFY(cell(model, 1, AuthStepModel::Result).isEmpty());
        QCOMPARE(model.index(4, 0).data(AuthStepModel::NameRole).toString(), u"token"_s);
        QVERIFY(model.index(4, 0).data(AuthStepModel::ErrorRole).toString().isEmpty());
    }

    void aNewFlowStartsTheTableOver()
    {
        AuthStepModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSteps(flow());
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const QList<AuthStep> next = {step(u"refresh"_s, u"POST"_s, u"http://as/token"_s, 200)};
        model.setSteps(next);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(model, 0, AuthStepModel::Step), u"✓ Refresh"_s);
        model.setSteps({});
        QCOMPARE(model.rowCount(), 0);
    }

    void aFailedStepSaysItsErrorInWordsAndNotByColourAlone()
    {
        AuthStepModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<AuthStep> steps = flow().mid(0, 1);
        steps.append(
            failed(step(u"authorization-server-metadata"_s, u"GET"_s,
                        u"http://127.0.0.1:3000/.well-known/openid-configuration"_s, 404),
                   u"no authorization server metadata at any of the 3 well-known paths"_s));
        model.setSteps(steps);
        QCOMPARE(cell(model, 1, AuthStepModel::Step), u"✗ Authorization server metadata"_s);
        QCOMPARE(cell(model, 1, AuthStepModel::Result),
                 u"no authorization server metadata at any of the 3 well-known paths"_s);
        QCOMPARE(cell(model, 1, AuthStepModel::Status), u"404"_s);
        QVERIFY(model.index(1, 0).data(AuthStepModel::FailedRole).toBool());
        QVERIFY(!model.index(0, 0).data(AuthStepModel::FailedRole).toBool());
        // The error (and its row's mark) in a colour readable on the light and dark palettes.
        const QColor red =
            model.index(1, AuthStepModel::Result).data(Qt::ForegroundRole).value<QColor>();
        QCOMPARE(red, AuthStepModel::errorColor());
        QCOMPARE(model.index(1, AuthStepModel::Step).data(Qt::ForegroundRole).value<QColor>(), red);
        QVERIFY(!model.index(0, AuthStepModel::Step).data(Qt::ForegroundRole).isValid());
        for (const QColor &base : {QColor(0xff, 0xff, 0xff), QColor(0xf0, 0xf0, 0xf0),
                                   QColor(0x1e, 0x1e, 0x1e), QColor(0x2b, 0x2b, 0x2b)})
            QVERIFY2(contrast(red, base) >= 3.0,
                     qPrintable(
                         u"%1 on %2: %3"_s.arg(red.name(), base.name()).arg(contrast(red, base))));
        // The whole error in the tooltip, for a column too narrow to show it.
        QCOMPARE(cell(model, 1, AuthStepModel::Result, Qt::ToolTipRole),
                 u"Error: no authorization server metadata at any of the 3 well-known paths"_s);
        QCOMPARE(model.index(1, 0).data(AuthStepModel::ErrorRole).toString(),
                 u"no authorization server metadata at any of the 3 well-known paths"_s);
    }

    void theStatusColumnTellsAnAnswerFromNoRequest_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("request");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a request answered 200 shows 200")
            << u"GET"_s << 200 << true << u"GET http://as/x"_s << u"200"_s;
        QTest::newRow("a request refused 401 shows 401")
            << u"POST"_s << 401 << false << u"POST http://as/x"_s << u"401"_s;
        QTest::newRow("a request nobody answered says so")
            << u"POST"_s << 0 << false << u"POST http://as/x"_s << u"no answer"_s;
        QTest::newRow("an authorize step answered by its redirect says redirect, not no answer")
            << u"GET"_s << 0 << true << u"GET http://as/x"_s << u"redirect"_s;
        QTest::newRow("a decision that sent nothing shows no request and no status")
            << QString() << 0 << true << u"(no request)"_s << u"—"_s;
    }
    void theStatusColumnTellsAnAnswerFromNoRequest()
    {
        QFETCH(QString, method);
        QFETCH(int, status);
        QFETCH(bool, ok);
        QFETCH(QString, request);
        QFETCH(QString, shown);
        AuthStep s =
            step(u"token"_s, method, method.isEmpty() ? QString() : u"http://as/x"_s, status);
        s.ok = ok;
        if (!ok)
            s.error = u"it went wrong"_s;
        AuthStepModel model;
        model.setSteps({s});
        QCOMPARE(cell(model, 0, AuthStepModel::Request), request);
        QCOMPARE(cell(model, 0, AuthStepModel::Status), shown);
    }

    void stepNamesReadAsWords_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("words");
        QTest::newRow("the resource's metadata")
            << u"protected-resource-metadata"_s << u"Protected resource metadata"_s;
        QTest::newRow("the authorization server's metadata")
            << u"authorization-server-metadata"_s << u"Authorization server metadata"_s;
        QTest::newRow("the client identity") << u"client-identity"_s << u"Client identity"_s;
        QTest::newRow("the browser step") << u"authorization"_s << u"Authorization (browser)"_s;
        QTest::newRow("the token") << u"token"_s << u"Token"_s;
        QTest::newRow("a refresh") << u"refresh"_s << u"Refresh"_s;
        QTest::newRow("a step-up") << u"step-up"_s << u"Step-up (more scopes)"_s;
        QTest::newRow("a step the view does not know keeps its name in words")
            << u"dpop-proof"_s << u"Dpop proof"_s;
    }
    void stepNamesReadAsWords()
    {
        QFETCH(QString, name);
        QFETCH(QString, words);
        QCOMPARE(AuthStepModel::stepTitle(name), words);
    }

    void theTimeColumnReadsAtAGlance_data()
    {
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<QString>("shown");
        QTest::newRow("under a second in milliseconds") << qint64(84) << u"84 ms"_s;
        QTest::newRow("seconds with one decimal") << qint64(2450) << u"2.5 s"_s;
        QTest::newRow("a minute in the browser in minutes and seconds")
            << qint64(83'000) << u"1 min 23 s"_s;
    }
    void theTimeColumnReadsAtAGlance()
    {
        QFETCH(qint64, elapsedMs);
        QFETCH(QString, shown);
        AuthStep s = step(u"authorization"_s, u"GET"_s, u"http://as/authorize"_s, 302);
        s.elapsedMs = elapsedMs;
        AuthStepModel model;
        model.setSteps({s});
        QCOMPARE(cell(model, 0, AuthStepModel::Time), shown);
    }

    void theStoreKeepsEachServersOwnState()
    {
        AuthStateStore store;
        store.addServer(u"a"_s);
        store.addServer(u"b"_s);
        QSignalSpy changed(&store, &AuthStateStore::stateChanged);
        store.update(state(u"a"_s, AuthState::Status::Discovering, flow().mid(0, 2)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).toString(), u"a"_s);
        QCOMPARE(store.state(u"a"_s).steps.size(), 2);
        QCOMPARE(store.state(u"b"_s).status, AuthState::Status::None);
        QVERIFY(store.state(u"b"_s).steps.isEmpty());
        QCOMPARE(store.state(u"b"_s).server, u"b"_s);
        // A server removed (or never added) keeps nothing: its engine may still report.
        store.removeServer(u"a"_s);
        store.update(state(u"a"_s, AuthState::Status::Authorized, flow()));
        store.update(state(u"ghost"_s, AuthState::Status::Authorized, flow()));
        QCOMPARE(store.state(u"a"_s).status, AuthState::Status::None);
        QCOMPARE(store.state(u"ghost"_s).status, AuthState::Status::None);
        QVERIFY(!store.holds(u"a"_s));
        QVERIFY(store.holds(u"b"_s));
    }

    void theBrowserIsWantedOncePerFlow()
    {
        AuthStateStore store;
        store.addServer(u"a"_s);
        store.addServer(u"b"_s);
        QSignalSpy wanted(&store, &AuthStateStore::browserWanted);
        const QUrl first(u"http://127.0.0.1:3000/authorize?state=one"_s);
        const QUrl second(u"http://127.0.0.1:3000/authorize?state=two"_s);
        const QList<AuthStep> steps = flow();
        store.update(state(u"a"_s, AuthState::Status::Discovering, steps.mid(0, 3)));
        QCOMPARE(wanted.count(), 0);
        store.update(state(u"a"_s, AuthState::Status::AwaitingUser, steps.mid(0, 3), first));
        QCOMPARE(wanted.count(), 1);
        QCOMPARE(wanted.last().at(0).toString(), u"a"_s);
        QCOMPARE(wanted.last().at(1).toUrl(), first);
        // Updates while the browser is out (the same URL) do not open it again.
        store.update(state(u"a"_s, AuthState::Status::AwaitingUser, steps.mid(0, 3), first));
        store.update(state(u"a"_s, AuthState::Status::AwaitingUser, steps.mid(0, 4), first));
        QCOMPARE(wanted.count(), 1);
        // Another server's flow is its own.
        store.update(state(u"b"_s, AuthState::Status::AwaitingUser, steps.mid(0, 3), second));
        QCOMPARE(wanted.count(), 2);
        QCOMPARE(wanted.last().at(0).toString(), u"b"_s);
        store.update(state(u"a"_s, AuthState::Status::Authorized, steps));
        // The next flow (a step-up) opens it again, even at a URL seen before.
        store.update(state(u"a"_s, AuthState::Status::Discovering, {}));
        store.update(state(u"a"_s, AuthState::Status::AwaitingUser, {}, first));
        QCOMPARE(wanted.count(), 3);
        // Waiting with no URL (nothing to open yet) wants nothing.
        store.update(state(u"b"_s, AuthState::Status::Discovering, {}));
        store.update(state(u"b"_s, AuthState::Status::AwaitingUser, {}));
        QCOMPARE(wanted.count(), 3);
    }

    void aServerWhoseFlowsUseNoBrowserNeverWantsIt()
    {
        AuthStateStore store;
        store.addServer(u"cli-like"_s, false);
        QSignalSpy wanted(&store, &AuthStateStore::browserWanted);
        const QUrl url(u"http://127.0.0.1:3000/authorize?state=one"_s);
        store.update(state(u"cli-like"_s, AuthState::Status::AwaitingUser, flow().mid(0, 3), url));
        QCOMPARE(wanted.count(), 0);
        QCOMPARE(store.state(u"cli-like"_s).authorizationUrl, url); // still shown
        // Edited to use the browser: its next flow opens it; the state stays.
        store.addServer(u"cli-like"_s, true);
        QCOMPARE(store.state(u"cli-like"_s).steps.size(), 3);
        store.update(state(u"cli-like"_s, AuthState::Status::Discovering, {}));
        store.update(state(u"cli-like"_s, AuthState::Status::AwaitingUser, {}, url));
        QCOMPARE(wanted.count(), 1);
    }

    void aCommandsAnswerIsTakenByItsTicket()
    {
        AuthStateStore store;
        store.addServer(u"a"_s);
        store.addPending(7, u"a"_s, AuthAction::Login);
        QCOMPARE(store.pendingAction(u"a"_s), std::optional<AuthAction>(AuthAction::Login));
        QSignalSpy changed(&store, &AuthStateStore::stateChanged);
        CallOutcome other;
        other.ticket = 8;
        other.server = u"a"_s;
        other.method = u"tools/call"_s;
        QVERIFY(!store.settle(other));
        CallOutcome o;
        o.ticket = 7;
        o.server = u"a"_s;
        o.method = u"sonde/auth"_s;
        o.error = Error::protocol(u"authorization is not wired into the engine yet (login)"_s);
        const std::optional<AuthAction> action = store.settle(o);
        QCOMPARE(action, std::optional<AuthAction>(AuthAction::Login));
        QVERIFY(!store.pendingAction(u"a"_s));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(store.commandError(u"a"_s),
                 u"Sign in failed: authorization is not wired into the engine yet (login)"_s);
        // Taken once.
        QVERIFY(!store.settle(o));
        // The next command starts clean; its success leaves no error behind.
        store.addPending(9, u"a"_s, AuthAction::Refresh);
        QVERIFY(store.commandError(u"a"_s).isEmpty());
        o.ticket = 9;
        o.error = {};
        QCOMPARE(store.settle(o), std::optional<AuthAction>(AuthAction::Refresh));
        QVERIFY(store.commandError(u"a"_s).isEmpty());
        // A removed server's tickets go with it.
        store.addPending(10, u"a"_s, AuthAction::SignOut);
        store.removeServer(u"a"_s);
        o.ticket = 10;
        QVERIFY(!store.settle(o));
    }
};

QTEST_MAIN(TestAuthStepModel)
#include "tst_authstepmodel.moc"

// SPDX-License-Identifier: MIT
// An OAuth step-up in the real window, against the demo server's OAuth mode: a call refused
// with 403 insufficient_scope waits, unsent, while the user signs in again with more scope;
// the Tools tab of its server says so ("waiting for you to sign in with scope mcp:write in the
// browser") instead of a bar running on in silence, also after switching servers and back;
// the answer's banner says it needed the step-up. The "browser" here is a
// QNetworkAccessManager that follows the authorize URL to the loopback listener, whose page
// it reads: "Signed in to protected".
#include "auth/authpanel.h"
#include "demohttpfixture.h"
#include "engine/corehost.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

struct Page
{
    int status = 0;
    QByteArray body;
};

// What a browser does with the authorize URL: the demo's authorization server redirects at
// once (no login form), and the redirect lands on Sonde's loopback listener.
Page follow(QNetworkAccessManager &nam, const QUrl &authorize)
{
    QNetworkRequest request(authorize);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply *toServer = nam.get(request);
    QSignalSpy done(toServer, &QNetworkReply::finished);
    if (!done.wait(10000))
        return {};
    const QUrl back = toServer->header(QNetworkRequest::LocationHeader).toUrl();
    toServer->deleteLater();
    QNetworkReply *toSonde = nam.get(QNetworkRequest(back));
    QSignalSpy landed(toSonde, &QNetworkReply::finished);
    if (!landed.wait(10000))
        return {};
    Page page{toSonde->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
              toSonde->readAll()};
    toSonde->deleteLater();
    return page;
}

void grab(QWidget *w, const QString &name)
{
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QTest::qWait(50); // the layout as the user sees it, after its pending requests
        w->grab().save(dir + u'/' + name + u".png"_s);
    }
}

} // namespace

class TestStepUp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aCallHeldForAStepUpSaysWhatItWaitsForAndItsAnswerThatItNeededOne()
    {
        SondeTest::DemoHttpServer demo;
        QVERIFY2(demo.startWith({u"--auth"_s}), "sonde-demo-server --http --auth did not start");
        const QString url = demo.url();

        CoreHost host;
        MainWindow window(host);
        QList<QUrl> opened;
        window.authPanel()->setUrlOpener([&opened](const QUrl &u) {
            opened.append(u);
            return true;
        });
        ServerConfig other;
        other.name = u"other"_s;
        other.route = ServerConfig::Route::StreamableHttp;
        other.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        ServerConfig protectedDemo;
        protectedDemo.name = u"protected"_s;
        protectedDemo.route = ServerConfig::Route::StreamableHttp;
        protectedDemo.url = QUrl(url);
        protectedDemo.era = ServerConfig::Era::Initialize;
        window.addServer(other, {}, false);
        window.addServer(protectedDemo);
        window.resize(1200, 760);
        window.show();
        window.selectServer(u"protected"_s);
        ToolsPanel *tools = window.toolsPanel();
        window.tabs()->setCurrentWidget(tools);

        // The first sign-in, asked for by the handshake's 401.
        QNetworkAccessManager browser;
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 15000);
        const Page first = follow(browser, opened.at(0));
        QCOMPARE(first.status, 200);
        QVERIFY2(first.body.contains("Signed in to protected"), first.body.constData());
        QTRY_VERIFY_WITH_TIMEOUT(tools->selectTool(u"increment-counter"_s), 15000);
        QVERIFY(tools->stepUpNote().isEmpty());

        // The write tool needs mcp:write: refused at the door, held while the user signs in.
        auto *call = tools->findChild<QPushButton *>(u"callButton"_s);
        QTRY_VERIFY(call->isEnabled());
        QTest::mouseClick(call, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 15000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            tools->stepUpNote().contains(
                u"waiting for you to sign in with scope mcp:write in the browser"_s),
            qPrintable(tools->stepUpNote()), 10000);
        grab(&window, u"tools-step-up-waiting"_s);
        // Another server's tab says nothing of it; back on this one, it is said again.
        window.selectServer(u"other"_s);
        QVERIFY(tools->stepUpNote().isEmpty());
        window.selectServer(u"protected"_s);
        QVERIFY(tools->stepUpNote().contains(u"scope mcp:write"_s));
        QVERIFY(tools->bannerText().isEmpty());

        const Page second = follow(browser, opened.at(1));
        QCOMPARE(second.status, 200);
        QVERIFY(second.body.contains("Signed in to protected"));
        QTRY_VERIFY_WITH_TIMEOUT(!tools->bannerText().isEmpty(), 15000);
        QVERIFY2(tools->bannerText().contains(u"Needed a step-up to scope mcp:write"_s),
                 qPrintable(tools->bannerText()));
        QVERIFY2(tools->resultText().contains(u"1"_s), qPrintable(tools->resultText()));
        QVERIFY(tools->stepUpNote().isEmpty());
        grab(&window, u"tools-step-up-answered"_s);
        // Kept with that answer: shown again when the server is shown again.
        window.selectServer(u"other"_s);
        window.selectServer(u"protected"_s);
        QVERIFY(tools->bannerText().contains(u"Needed a step-up to scope mcp:write"_s));

        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }
};

QTEST_MAIN(TestStepUp)
#include "tst_stepup.moc"

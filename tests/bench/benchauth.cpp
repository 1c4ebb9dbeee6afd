// SPDX-License-Identifier: MIT
// sonde-bench-auth: from the first 401 to the first authorized answer against the demo
// server's protected endpoint (sonde-demo-server --http --auth), the browser step automated
// (the headless user agent follows the authorize URL), beside the same exchange done by plain
// HTTP requests in a script (tests/bench/auth-floor.mjs, Node's fetch): the floor. In one
// run, on the same server, so the two columns share the machine's load. Every run starts with
// no credentials: a new server entry (a new session, a new registration).
#include "benchsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QProcess>

#include <vector>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr double GoalRatio = 1.5;

class ProtectedDemo
{
public:
    ProtectedDemo()
    {
        m_process.setStandardInputFile(QProcess::nullDevice());
        m_process.start(demoServerPath(), {u"--http"_s, u"127.0.0.1:0"_s, u"--auth"_s});
        if (!m_process.waitForStarted(IoTimeoutMs) || !m_process.waitForReadyRead(IoTimeoutMs))
            fail(1, u"sonde-demo-server --auth did not start"_s);
        m_url = QString::fromUtf8(m_process.readLine().trimmed());
        if (!m_url.startsWith("http://127.0.0.1:"_L1))
            fail(1, u"sonde-demo-server printed no URL: "_s + m_url);
    }
    ~ProtectedDemo()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    QString url() const { return m_url; }

private:
    QProcess m_process;
    QString m_url;
};

// Sonde: a new server entry with no credentials, from addServer() to the session being
// ready: the refused initialize, the whole flow, the initialize again with the token.
std::vector<double> sondeRuns(const QString &url, int runs)
{
    Sonde::CoreHost host;
    std::vector<double> ms;
    for (int i = 0; i <= runs; ++i) { // run 0 warms up (connections, first allocations)
        Sonde::ServerConfig c;
        c.name = u"auth-%1"_s.arg(i);
        c.route = Sonde::ServerConfig::Route::StreamableHttp;
        c.era = Sonde::ServerConfig::Era::Initialize; // the floor speaks initialize too
        c.url = QUrl(url);
        c.auth.agent = Sonde::ServerConfig::Auth::Agent::Headless;
        QEventLoop loop;
        QString failure;
        QElapsedTimer t;
        QObject::connect(&host, &Sonde::CoreHost::sessionChanged, &loop,
                         [&](const Sonde::SessionSnapshot &s) {
                             if (s.server != c.name)
                                 return;
                             if (s.state == Sonde::SessionSnapshot::State::Ready)
                                 loop.quit();
                             else if (s.state == Sonde::SessionSnapshot::State::Failed) {
                                 failure = s.lastError.message();
                                 loop.quit();
                             }
                         });
        QTimer::singleShot(IoTimeoutMs, &loop, [&] {
            failure = u"no ready session within 30 s"_s;
            loop.quit();
        });
        t.start();
        host.addServer(c);
        loop.exec();
        const double elapsed = double(t.nsecsElapsed()) / 1e6;
        if (!failure.isEmpty())
            fail(1, u"Sonde's flow failed: "_s + failure);
        if (i > 0)
            ms.push_back(elapsed);
        host.removeServer(c.name);
    }
    return ms;
}

QJsonObject floorRuns(const QString &url, int runs)
{
    QProcess node;
    node.start(u"node"_s, {testsDir() + u"/bench/auth-floor.mjs"_s, url, QString::number(runs)});
    if (!node.waitForFinished(IoTimeoutMs * 4) || node.exitCode() != 0)
        fail(1, u"auth-floor.mjs failed: "_s + QString::fromUtf8(node.readAllStandardError()));
    return QJsonDocument::fromJson(node.readAllStandardOutput().trimmed()).object();
}

} // namespace

int runBenchmark()
{
    int runs = 30;
    OptionReader r(QCoreApplication::arguments());
    r.read(u"usage: sonde-bench-auth [--runs N]\n"
           u"From the first 401 to the first authorized answer against sonde-demo-server "
           u"--http --auth, beside plain HTTP requests in a script."_s,
           [&](const QString &a) {
               if (a != "--runs"_L1)
                   return false;
               runs = r.count();
               return true;
           });
    requireBuilt(demoServerPath(), u"sonde-demo-server target"_s);
    ProtectedDemo demo;
    const QJsonObject floor = floorRuns(demo.url(), runs);
    const std::vector<double> sonde = sondeRuns(demo.url(), runs);
    const double floorP50 = floor.value("p50_ms"_L1).toDouble();
    const double sondeP50 = percentile(sonde, 50);
    out(u"sonde-bench-auth: %1 runs each, from the first 401 to the first authorized answer, "
        u"sonde-demo-server --http --auth on loopback"_s.arg(runs));
    out(u"  %1 %2 %3 %4"_s.arg(u"client"_s, -46)
            .arg(u"p50 ms"_s, 9)
            .arg(u"p90 ms"_s, 9)
            .arg(u"min ms"_s, 9));
    out(u"  %1 %2 %3 %4"_s.arg(u"floor: plain HTTP (auth-floor.mjs, node fetch)"_s, -46)
            .arg(num(floorP50, 9, 2))
            .arg(num(floor.value("p90_ms"_L1).toDouble(), 9, 2))
            .arg(num(floor.value("min_ms"_L1).toDouble(), 9, 2)));
    out(u"  %1 %2 %3 %4"_s.arg(u"Sonde (CoreHost, headless user agent)"_s, -46)
            .arg(num(sondeP50, 9, 2))
            .arg(num(percentile(sonde, 90), 9, 2))
            .arg(num(*std::min_element(sonde.begin(), sonde.end()), 9, 2)));
    const double ratio = floorP50 > 0 ? sondeP50 / floorP50 : 0;
    out(u"  Sonde / floor at p50: %1x (goal <= %2x): %3"_s.arg(num(ratio, 0, 2))
            .arg(GoalRatio)
            .arg(verdict(ratio <= GoalRatio)));
    return 0;
}

int main(int argc, char **argv)
{
    clearProxyVariables();
    QCoreApplication app(argc, argv);
    return runGuarded("sonde-bench-auth", runBenchmark);
}

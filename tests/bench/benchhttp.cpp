// SPDX-License-Identifier: MIT
// sonde-bench-http: Sonde's Streamable HTTP path against the official TypeScript SDK client
// (warm) and a curl script (cold), in one run, so the figures are compared on the same machine
// under the same load: 2025-11-25 against server-everything and the demo server (four curl
// requests: initialize, initialized, the call, DELETE), and 2026-07-28 against the v2 SDK
// server (one request: the call, beside the v2 SDK client). Every connection stays on
// 127.0.0.1. Beside the engine, floors without it (floorcolumns.h): a raw socket and a bare
// QNetworkAccessManager; in 2026-07-28 they send the engine's own frame and headers, and
// come in variants that add the engine's way of posting and its open listen stream, so the
// share of each is measured in the same run. CPU time per call is printed for every column,
// and under callgrind each block is a dump (callgrind-per-call.sh sums them).
#include "benchsupport.h"
#include "floorcolumns.h"
#include "rawhttpclient.h"
#include "wireframe.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr int WarmUpCalls = 100;
constexpr int CallBlock = 100;
constexpr double WarmGoalUs = 2900.0; // half of the official Inspector's --load p50 here (5.8 ms)
constexpr double ColdGoalRatio = 1.5;
constexpr double ModernColdGoalRatio = 1.2; // "at most 1.2x the curl floor for the same POST"
constexpr double ModernFloorGoalUs = 300.0; // "within 0.3 ms of the bare-QNAM floor"
const QString CurlPath = u"/usr/bin/curl"_s;
const QString QnamOneShotPath = QStringLiteral(SONDE_QNAM_ONESHOT_PATH);

struct Options
{
    int calls = 2000;
    int runs = 10;
    bool everything = true;
    bool demo = true;
    bool v2 = true;
};

// ---- official SDK baseline --------------------------------------------------------------

struct Figures
{
    double p50 = 0, p99 = 0, mean = 0;
};

Figures sdkBaseline(const QString &endpoint, int calls, bool modern)
{
    QProcess p;
    p.start(u"node"_s,
            {testsDir() + (modern ? u"/bench/sdk-modern-echo.mjs"_s : u"/bench/sdk-echo.mjs"_s),
             endpoint, QString::number(calls), QString::number(WarmUpCalls)});
    if (!p.waitForStarted(IoTimeoutMs))
        fail(1, u"cannot start node: "_s + p.errorString());
    // Generous: a call slower than 50 ms on loopback means something is broken anyway.
    if (!p.waitForFinished(IoTimeoutMs + (calls + WarmUpCalls) * 50)) {
        p.kill();
        p.waitForFinished();
        fail(1, u"sdk-echo.mjs timed out"_s);
    }
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        fail(1, u"sdk-echo.mjs failed (exit %1): %2"_s.arg(p.exitCode()).arg(err));
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject o = QJsonDocument::fromJson(lines.last()).object();
    if (!o.value("p50_us"_L1).isDouble() || !o.value("p99_us"_L1).isDouble() ||
        !o.value("mean_us"_L1).isDouble())
        fail(1,
             u"sdk-echo.mjs printed no figures: "_s + QString::fromUtf8(lines.last()) + u' ' + err);
    return {o.value("p50_us"_L1).toDouble(), o.value("p99_us"_L1).toDouble(),
            o.value("mean_us"_L1).toDouble()};
}

// ---- curl baseline ----------------------------------------------------------------------

// One curl process, waited for, as a shell script would run it. --fail turns an HTTP error
// status into a non-zero exit, so a refused request cannot pass for a fast one.
QByteArray curl(const QStringList &args, const char *step)
{
    QProcess p;
    p.start(CurlPath, QStringList{u"-sS"_s, u"--fail"_s} + args);
    if (!p.waitForFinished(IoTimeoutMs) || p.exitStatus() != QProcess::NormalExit ||
        p.exitCode() != 0)
        fail(1, u"curl %1 failed (exit %2): %3"_s.arg(QLatin1StringView(step))
                    .arg(p.exitCode())
                    .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
    return p.readAllStandardOutput();
}

// initialize, notifications/initialized, tools/call echo, DELETE: the same exchange
// sonde-cli performs, in the fewest requests the protocol allows.
double curlOneShotMs(const QString &endpoint)
{
    const QStringList post{u"-H"_s, u"Content-Type: application/json"_s, u"-H"_s,
                           u"Accept: application/json, text/event-stream"_s};
    QElapsedTimer timer;
    timer.start();
    const QByteArray init = curl(
        post +
            QStringList{
                u"-D"_s, u"-"_s, u"-d"_s,
                uR"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                uR"("capabilities":{},"clientInfo":{"name":"curl","version":"1"}}})"_s,
                endpoint},
        "initialize");
    // Header lines only, matched by name: server-everything also lists mcp-session-id in
    // Access-Control-Expose-Headers.
    QByteArray sessionId;
    for (const QByteArray &line : init.split('\n')) {
        const QByteArray l = line.trimmed();
        if (l.isEmpty())
            break;
        if (l.toLower().startsWith("mcp-session-id:"))
            sessionId = l.mid(15).trimmed();
    }
    if (sessionId.isEmpty() || !init.contains("\"result\""))
        fail(1, u"curl initialize: no session id or no result"_s);
    const QStringList session{u"-H"_s, u"Mcp-Session-Id: "_s + QString::fromLatin1(sessionId),
                              u"-H"_s, u"MCP-Protocol-Version: 2025-11-25"_s};
    curl(post + session +
             QStringList{u"-d"_s,
                         u"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"_s,
                         endpoint},
         "notifications/initialized");
    const QByteArray echo = curl(
        post + session +
            QStringList{
                u"-d"_s,
                uR"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}})"_s,
                endpoint},
        "tools/call");
    if (!echo.contains("Echo: hi"))
        fail(1, u"curl tools/call: unexpected answer "_s + QString::fromUtf8(echo));
    curl(session + QStringList{u"-X"_s, u"DELETE"_s, endpoint}, "DELETE");
    return double(timer.nsecsElapsed()) / 1e6;
}

// The same call in 2026-07-28: one POST, no handshake and no session, as a script would send
// it; the floor sonde-cli --era 2026-07-28 is measured against.
double curlModernOneShotMs(const QString &endpoint)
{
    QElapsedTimer timer;
    timer.start();
    const QByteArray echo =
        curl({u"-H"_s, u"Content-Type: application/json"_s, u"-H"_s,
              u"Accept: application/json, text/event-stream"_s, u"-H"_s,
              u"MCP-Protocol-Version: 2026-07-28"_s, u"-H"_s, u"Mcp-Method: tools/call"_s, u"-H"_s,
              u"Mcp-Name: echo"_s, u"-d"_s, QString::fromUtf8(RawHttpClient::echoBody(1, true)),
              endpoint},
             "tools/call (2026-07-28)");
    if (!echo.contains("Echo: hi"))
        fail(1, u"curl tools/call: unexpected answer "_s + QString::fromUtf8(echo));
    return double(timer.nsecsElapsed()) / 1e6;
}

// curl sending one 2026-07-28 tools/call POST (`body`) as a script would, its answer to
// `outFile` when given (else to standard output, which the launcher sends to /dev/null).
QList<QByteArray> curlModernCall(const QString &endpoint, const QByteArray &tool,
                                 const QByteArray &body, const QByteArray &outFile = {})
{
    QList<QByteArray> argv{QFile::encodeName(CurlPath), "-sS", "--fail"};
    if (!outFile.isEmpty())
        argv << "-o" << outFile;
    return argv << "-H"
                << "Content-Type: application/json"
                << "-H"
                << "Accept: application/json, text/event-stream"
                << "-H"
                << "MCP-Protocol-Version: 2026-07-28"
                << "-H"
                << "Mcp-Method: tools/call"
                << "-H"
                << "Mcp-Name: " + tool << "-d" << body << endpoint.toUtf8();
}

// ---- one server -------------------------------------------------------------------------

void benchLargeAnswer(const QString &endpoint, const QString &cli);

void benchServer(Server::Kind kind, const Options &o, const QString &cli)
{
    const Server server(kind);
    const QString endpoint = server.endpoint();
    const bool modern = kind == Server::Kind::V2Sdk;
    out(u"== "_s + server.label());
    out(u"   endpoint: "_s + endpoint);
    out(QString());

    out(u"Warm latency: %1 sequential tools/call echo per client, one session each (after %2 warm-up)"_s
            .arg(o.calls)
            .arg(WarmUpCalls));
    // The engine and the floors each hold a connection to the server at once and take turns
    // in blocks, so that background load drifts into every column alike.
    std::vector<Column> columns;
    {
        // Each row compares like with like: the floors speak the row's revision, so the engine
        // is pinned to it (the demo server speaks both).
        Sonde::ServerConfig config = httpConfig(endpoint);
        config.era =
            modern ? Sonde::ServerConfig::Era::Rev20260728 : Sonde::ServerConfig::Era::Initialize;
        EchoBench engine(config);
        engine.run(WarmUpCalls, nullptr);
        WireFrame call, listen;
        if (modern) {
            // What the engine really sent: the floors send the same bytes and headers.
            call = WireFrame::parse(engine.sentFrame(u"tools/call"_s));
            // Sent at the start if the server has anything to listen for; a short wait.
            if (const QByteArray l = engine.sentFrame(u"subscriptions/listen"_s, 200); !l.isEmpty())
                listen = WireFrame::parse(l);
        }
        engine.stopRecording();
        // The window (and --history, --transcript) also records each HTTP exchange for HAR:
        // its cost, beside the engine that records none, as sonde-cli does by default.
        Sonde::ServerConfig recordingConfig = config;
        recordingConfig.recordHttpExchanges = true;
        EchoBench recording(recordingConfig);
        recording.run(WarmUpCalls, nullptr);
        recording.stopRecording();
        Floors floors(endpoint, modern, call, listen);
        columns.push_back({u"Sonde engine"_s, u"sonde"_s,
                           [&](int n, std::vector<double> *into) { engine.run(n, into); }});
        columns.push_back({u"Sonde engine, HTTP exchanges kept"_s, u"sonde-har"_s,
                           [&](int n, std::vector<double> *into) { recording.run(n, into); }});
        columns.insert(columns.end(), floors.columns().begin(), floors.columns().end());
        for (Column &c : columns) {
            if (c.key != "sonde"_L1 && c.key != "sonde-har"_L1)
                c.block(WarmUpCalls, nullptr);
        }
        for (int done = 0; done < o.calls; done += CallBlock) {
            const int n = std::min(CallBlock, o.calls - done);
            for (Column &c : columns)
                c.timedBlock(n, server.pid());
        }
        engine.shutdown();
        recording.shutdown();
        floors.close();
    }
    // After the others, not interleaved: the SDK runs its own loop in another process. Its
    // warm-up calls are in the server's CPU time too.
    const qint64 serverBefore = processCpuNs(server.pid());
    const Figures sdk = sdkBaseline(endpoint, o.calls, modern);
    const double sdkServerUs =
        double(processCpuNs(server.pid()) - serverBefore) / 1e3 / (o.calls + WarmUpCalls);
    const Column &sonde = columns.front();
    const Column &namFloor = *findColumn(columns, u"nam"_s);
    const Column &rawFloor = *findColumn(columns, u"raw"_s);
    const double e50 = percentile(sonde.us, 50), e99 = percentile(sonde.us, 99),
                 em = mean(sonde.us);
    const double r50 = percentile(rawFloor.us, 50), n50 = percentile(namFloor.us, 50);
    out(u"              Sonde engine  SDK client        Sonde vs SDK    QNAM alone   raw floor"_s);
    out(u"  p50  (us)"_s + num(e50, 15) + num(sdk.p50, 12) + overhead(e50, sdk.p50) + num(n50, 14) +
        num(r50, 12));
    out(u"  p99  (us)"_s + num(e99, 15) + num(sdk.p99, 12) + overhead(e99, sdk.p99) +
        num(percentile(namFloor.us, 99), 14) + num(percentile(rawFloor.us, 99), 12));
    out(u"  mean (us)"_s + num(em, 15) + num(sdk.mean, 12) + overhead(em, sdk.mean) +
        num(mean(namFloor.us), 14) + num(mean(rawFloor.us), 12));
    out(u"  QNAM alone: the same calls through a QNetworkAccessManager on this thread, no engine"_s);
    out(u"  raw floor: one blocking keep-alive socket, requests written by hand (the server's own time per call)"_s);
    if (modern)
        out(u"  both floors send the engine's own frame (its _meta) and headers, under their own ids"_s);
    out(u"  p50 above the raw floor: Sonde "_s + QString::number(e50 - r50, 'f', 1) +
        u" us, of which Qt's HTTP stack "_s + QString::number(n50 - r50, 'f', 1) +
        u" us and the engine "_s + QString::number(e50 - n50, 'f', 1) + u" us"_s);
    printColumns(columns, sdkServerUs);
    if (modern) {
        printShares(columns);
        out(u"  goal: warm p50 at most the v2 SDK client's (%1 us): "_s.arg(sdk.p50, 0, 'f', 1) +
            verdict(e50 <= sdk.p50));
        out(u"  goal: warm p50 within 0.3 ms of the bare-QNAM floor (%1 us above it): "_s.arg(
                e50 - n50, 0, 'f', 1) +
            verdict(e50 - n50 <= ModernFloorGoalUs));
    } else {
        out(u"  goal: warm p50 at most half of what the official Inspector's --load reports "
            u"(5.8 ms here),"
            " i.e. <= 2.9 ms: "_s +
            verdict(e50 <= WarmGoalUs) +
            (r50 > WarmGoalUs   ? u" (the raw floor itself is above it on this machine)"_s
             : n50 > WarmGoalUs ? u" (Qt's HTTP stack alone is above it on this machine)"_s
                                : QString()));
    }
    out(QString());

    out(u"Cold one-shot: %1 runs (after 1 warm-up) of sonde-cli --url tools call echo"_s.arg(
        o.runs));
    QList<QByteArray> argvCli{
        QFile::encodeName(cli), "--quiet", "--era", "initialize", "--url",
        endpoint.toUtf8(),      "tools",   "call",  "echo",       "{\"message\":\"hi\"}"};
    if (modern)
        argvCli = {
            QFile::encodeName(cli), "--quiet", "--era", "2026-07-28", "--url",
            endpoint.toUtf8(),      "tools",   "call",  "echo",       "{\"message\":\"hi\"}"};
    const bool haveCurl = QFileInfo(CurlPath).isExecutable();
    // In 2026-07-28 the floors are single programs, launched exactly as sonde-cli is (fork,
    // exec, output to /dev/null, wait4): curl, and the least a Qt program does for the same
    // POST. Each is checked once for the right answer, untimed, through QProcess.
    const QByteArray body = RawHttpClient::echoBody(1, true);
    const QList<QByteArray> argvCurl = curlModernCall(endpoint, "echo", body);
    const QList<QByteArray> argvQt{QFile::encodeName(QnamOneShotPath), endpoint.toUtf8(), body};
    if (modern) {
        QProcess qt;
        qt.start(QnamOneShotPath, {endpoint, QString::fromUtf8(body)});
        if (!qt.waitForFinished(IoTimeoutMs) || qt.exitCode() != 0)
            fail(1, u"sonde-bench-qnam-oneshot did not get the echo: "_s +
                        QString::fromUtf8(qt.readAllStandardOutput() + qt.readAllStandardError()));
    }
    const auto curlFloor = [&] {
        return modern ? cliOneShot(argvCurl).wallMs : curlOneShotMs(endpoint);
    };
    cliOneShot(argvCli);
    if (haveCurl) {
        if (modern)
            curlModernOneShotMs(endpoint);
        curlFloor();
    }
    if (modern)
        cliOneShot(argvQt);
    // Alternated so that background load drifts into every column alike.
    std::vector<double> cliMs, cliRss, curlMs, qtMs;
    for (int i = 0; i < o.runs; ++i) {
        const CliRun r = cliOneShot(argvCli);
        cliMs.push_back(r.wallMs);
        cliRss.push_back(r.ownPeakMiB);
        if (haveCurl)
            curlMs.push_back(curlFloor());
        if (modern)
            qtMs.push_back(cliOneShot(argvQt).wallMs);
    }
    const double cMed = percentile(cliMs, 50), cMax = maxOf(cliMs);
    if (haveCurl) {
        const double kMed = percentile(curlMs, 50), kMax = maxOf(curlMs);
        out(modern
                ? u"              sonde-cli   curl x1 (one POST) sonde/curl   Qt alone (one POST)"_s
                : u"              sonde-cli   curl x4 (script)   sonde/curl"_s);
        const auto qtColumn = [&](double v) {
            return modern ? num(v, 14) + u" ("_s + num(cMed / percentile(qtMs, 50), 0, 2) +
                                u"x of it)"_s
                          : QString();
        };
        out(u"  median (ms)"_s + num(cMed, 11) + num(kMed, 19) + num(cMed / kMed, 12, 2) + u'x' +
            (modern ? qtColumn(percentile(qtMs, 50)) : QString()));
        out(u"  max    (ms)"_s + num(cMax, 11) + num(kMax, 19) + num(cMax / kMax, 12, 2) + u'x' +
            (modern ? num(maxOf(qtMs), 14) : QString()));
        if (modern)
            out(u"  Qt alone: sonde-bench-qnam-oneshot, one QNAM POST and exit (Qt's own share); "
                u"all three launched alike"_s);
        const double ratio = modern ? ModernColdGoalRatio : ColdGoalRatio;
        out(u"  goal: one-shot within %1x of the curl floor (median): "_s.arg(ratio) +
            verdict(cMed <= kMed * ratio));
    } else {
        out(u"              sonde-cli"_s);
        out(u"  median (ms)"_s + num(cMed, 11));
        out(u"  max    (ms)"_s + num(cMax, 11));
        out(u"  curl baseline skipped: "_s + CurlPath + u" not found; goal not evaluated"_s);
    }
    out(u"  sonde-cli peak RSS (median): %1 MiB (own VmHWM)"_s.arg(percentile(cliRss, 50), 0, 'f',
                                                                   1));
    out(QString());
    if (kind == Server::Kind::Demo)
        benchLargeAnswer(endpoint, cli);
}

// ---- a 50 MiB answer (issue 34) ------------------------------------------------------------

constexpr qint64 LargeAnswerBytes = 50 * 1024 * 1024;
constexpr qint64 OverLimitBytes = 70'000'000;
constexpr double LimitMiB = 64;
constexpr int LargeAnswerRuns = 3;

// The demo server's big-answer in 2026-07-28, one POST each: sonde-cli printing the answer
// (to /dev/null, as every one-shot here), against curl writing the same POST's body to a file,
// launched alike (fork, exec, wait4), alternated; time and each program's own peak RSS. Then
// a 70 MB answer, over the frame limit: refused while it streams, never held whole.
void benchLargeAnswer(const QString &endpoint, const QString &cli)
{
    out(u"Large answer: %1 runs of sonde-cli --era 2026-07-28 tools call big-answer (a %2 MiB "
        u"text) beside curl -o FILE for the same POST"_s.arg(LargeAnswerRuns)
            .arg(LargeAnswerBytes >> 20));
    const auto arguments = [](qint64 bytes) -> QByteArray {
        return "{\"bytes\":" + QByteArray::number(bytes) + '}';
    };
    const QList<QByteArray> argvCli{
        QFile::encodeName(cli), "--quiet", "--era", "2026-07-28", "--url",
        endpoint.toUtf8(),      "tools",   "call",  "big-answer", arguments(LargeAnswerBytes)};
    QTemporaryDir dir;
    const QByteArray file = QFile::encodeName(dir.filePath(u"answer"_s));
    const QByteArray body =
        QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big-answer",)"
                   R"("arguments":)") +
        arguments(LargeAnswerBytes) +
        R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
        R"("io.modelcontextprotocol/clientCapabilities":{},)"
        R"("io.modelcontextprotocol/clientInfo":{"name":"curl","version":"1"}}}})";
    const QList<QByteArray> argvCurl = curlModernCall(endpoint, "big-answer", body, file);
    const bool haveCurl = QFileInfo(CurlPath).isExecutable();
    std::vector<double> cliMs, cliRss, curlMs, curlRss;
    for (int i = 0; i < LargeAnswerRuns; ++i) {
        const CliRun r = cliOneShot(argvCli);
        cliMs.push_back(r.wallMs);
        cliRss.push_back(r.ownPeakMiB);
        if (!haveCurl)
            continue;
        const CliRun c = cliOneShot(argvCurl);
        curlMs.push_back(c.wallMs);
        curlRss.push_back(c.ownPeakMiB);
        if (QFileInfo(QFile::decodeName(file)).size() < LargeAnswerBytes)
            fail(1, u"curl wrote %1 bytes of the 50 MiB answer"_s.arg(
                        QFileInfo(QFile::decodeName(file)).size()));
    }
    const double answerMiB = double(LargeAnswerBytes >> 20);
    const double cMed = percentile(cliMs, 50), rss = percentile(cliRss, 50);
    if (haveCurl) {
        const double kMed = percentile(curlMs, 50);
        out(u"              sonde-cli   curl -o FILE   sonde/curl"_s);
        out(u"  median (ms)"_s + num(cMed, 11) + num(kMed, 15) + num(cMed / kMed, 12, 2) + u'x');
        out(u"  peak RSS   "_s + num(rss, 11) + num(percentile(curlRss, 50), 15) +
            u"  MiB (each program's own VmHWM, median)"_s);
    } else {
        out(u"  sonde-cli median %1 ms, peak RSS %2 MiB; curl baseline skipped: %3 not found"_s
                .arg(cMed, 0, 'f', 1)
                .arg(rss, 0, 'f', 1)
                .arg(CurlPath));
    }
    out(u"  goal: sonde-cli's peak RSS at most twice the answer plus 20 MiB (%1 MiB): "_s.arg(
            2 * answerMiB + 20) +
        verdict(rss <= 2 * answerMiB + 20));

    QList<QByteArray> over = argvCli;
    over.last() = arguments(OverLimitBytes);
    const CliRun refused = cliMedians(over, LargeAnswerRuns, 1); // exit 1, the limit named
    const double overPeak = refused.ownPeakMiB;
    out(u"  a %1 MB answer, over the %2 MiB frame limit: refused after %3 ms (median), sonde-cli "
        u"peak RSS %4 MiB"_s.arg(OverLimitBytes / 1'000'000)
            .arg(LimitMiB)
            .arg(refused.wallMs, 0, 'f', 1)
            .arg(overPeak, 0, 'f', 1));
    out(u"  goal: refused while it streams, peak RSS at most the limit plus 20 MiB (%1 MiB): "_s
            .arg(LimitMiB + 20) +
        verdict(overPeak <= LimitMiB + 20));
    out(QString());
}

Options parseOptions(const QStringList &args)
{
    Options o;
    OptionReader r(args);
    r.read(
        u"usage: sonde-bench-http [--calls N] [--runs N] [--server everything|demo|v2|both|all]"_s,
        [&](const QString &a) {
            if (a == "--calls"_L1)
                o.calls = r.count();
            else if (a == "--runs"_L1)
                o.runs = r.count();
            else if (a == "--server"_L1) {
                // v2: the 2026-07-28 figures alone; both: the two 2025-11-25 servers.
                const QString v = r.value();
                o.v2 = v == "v2"_L1 || v == "all"_L1;
                if (v == "v2"_L1)
                    o.everything = o.demo = false;
                else
                    chooseServers(v == "all"_L1 ? u"both"_s : v, o.everything, o.demo);
            } else
                return false;
            return true;
        });
    // The SDK baseline runs against both servers, so it is needed whichever is chosen.
    requireNodeModule(testsDir() + u"/node_modules/@modelcontextprotocol/sdk/package.json"_s);
    if (o.v2)
        requireNodeModule(testsDir() +
                          u"/node_modules/@modelcontextprotocol/client/package.json"_s);
    if (o.everything)
        requireNodeModule(everythingPath());
    return o;
}

} // namespace

int runBenchmark()
{
    const Options o = parseOptions(QCoreApplication::arguments());
    const QString cli = cliPath();
    out(u"sonde-cli: "_s + cli);
    out(u"curl:      "_s + (QFileInfo(CurlPath).isExecutable() ? CurlPath : u"(not found)"_s));
    out(QString());
    if (o.everything)
        benchServer(Server::Kind::Everything, o, cli);
    if (o.demo)
        benchServer(Server::Kind::Demo, o, cli);
    if (o.v2)
        benchServer(Server::Kind::V2Sdk, o, cli);
    return 0;
}

int main(int argc, char **argv)
{
    clearProxyVariables();
    QCoreApplication app(argc, argv);
    return runGuarded("sonde-bench-http", runBenchmark);
}

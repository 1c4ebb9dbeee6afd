// SPDX-License-Identifier: MIT
// sonde-bench-http: Sonde's Streamable HTTP path against the official TypeScript SDK client
// (warm) and a four-request curl script (cold), in one run, so the figures are compared on
// the same machine under the same load. Every connection stays on 127.0.0.1.
#include "config/serverconfig.h"
#include "engine/corehost.h"
#include "engine/values.h"
#include "session/sessionsnapshot.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <numeric>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

constexpr int WarmUpCalls = 100;
constexpr int CallBlock = 100;
constexpr int IoTimeoutMs = 30'000;
constexpr double WarmGoalUs = 2900.0; // half of the official Inspector's --load p50 here (5.8 ms)
constexpr double ColdGoalRatio = 1.5;
const QString CurlPath = u"/usr/bin/curl"_s;

struct Options
{
    int calls = 2000;
    int runs = 10;
    bool everything = true;
    bool demo = true;
};

// Thrown, not exit()ed, so that the CoreHost and QProcess destructors still stop the
// servers. Never thrown through Qt's event loop: every caller runs outside one.
struct Failure
{
    int code;
    QString message;
};
[[noreturn]] void fail(int code, const QString &message) { throw Failure{code, message}; }

void out(const QString &line) { std::printf("%s\n", qPrintable(line)); std::fflush(stdout); }

QString testsDir() { return QStringLiteral(SONDE_SOURCE_DIR) + u"/tests"_s; }

// Nearest-rank percentile: always a value that was actually measured (sdk-echo.mjs uses the
// same definition, so the two columns are comparable).
double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}
double mean(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }
double maxOf(const std::vector<double> &v) { return *std::max_element(v.begin(), v.end()); }
QString num(double v, int width, int prec = 1) { return QString::number(v, 'f', prec).rightJustified(width); }
// Relative and absolute: a fast server makes a fixed cost look large in percent.
QString overhead(double ours, double base)
{
    auto sign = [](double v) -> QString { return (v >= 0 ? u"+"_s : QString()) + QString::number(v, 'f', 1); };
    const QString text = sign((ours - base) / base * 100.0) + u" % ("_s + sign(ours - base) + u" us)"_s;
    return text.rightJustified(22);
}
QString verdict(bool met) { return met ? u"MET"_s : u"NOT MET"_s; }

// ---- servers under test -----------------------------------------------------------------

// Output goes to a file, not a pipe: server-everything logs every request on stdout, and a
// pipe nobody drains while we sit in waitFor* or wait4 would fill and stall the server.
class Server
{
public:
    enum class Kind { Everything, Demo };

    explicit Server(Kind kind) : m_kind(kind)
    {
        if (!m_dir.isValid())
            fail(1, u"cannot create a temporary directory"_s);
        m_log = m_dir.filePath(u"server.log"_s);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_log);
        m_process.setStandardInputFile(QProcess::nullDevice());
        if (kind == Kind::Everything) {
            const quint16 port = freePort();
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(u"PORT"_s, QString::number(port));
            m_process.setProcessEnvironment(env);
            // The preload pins the server's listen() to 127.0.0.1; it has no host flag.
            m_process.start(u"node"_s, {u"--import"_s, testsDir() + u"/fixtures/loopback.mjs"_s,
                                        everythingPath(), u"streamableHttp"_s});
            m_endpoint = u"http://127.0.0.1:%1/mcp"_s.arg(port);
            waitFor(QRegularExpression(u"listening on port %1\\b"_s.arg(port)));
        } else {
            m_process.start(QStringLiteral(SONDE_DEMO_SERVER_PATH), {u"--http"_s, u"127.0.0.1:0"_s});
            m_endpoint = waitFor(QRegularExpression(u"^(http://127\\.0\\.0\\.1:\\d+/mcp)$"_s,
                                                    QRegularExpression::MultilineOption));
        }
    }
    ~Server()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        // server-everything is killed (it has nothing to flush); the demo server gets the
        // SIGTERM a service manager would send, with SIGKILL only if it ignores that.
        if (m_kind == Kind::Everything)
            m_process.kill();
        else
            m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished();
    }

    QString endpoint() const { return m_endpoint; }
    QString label() const
    {
        return m_kind == Kind::Everything ? u"server-everything (pinned reference, node, streamableHttp)"_s
                                          : u"sonde-demo-server --http (Sonde's own, C++)"_s;
    }
    static QString everythingPath()
    {
        return testsDir() + u"/node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s;
    }

private:
    // Bind, read the port, close: the server binds it again a moment later. A race with
    // another process is possible but shows up as "already in use" in the log, not silently.
    static quint16 freePort()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            fail(1, u"cannot bind 127.0.0.1:0: "_s + probe.errorString());
        return probe.serverPort();
    }
    // Returns the first capture group (or the whole match) once the log shows it.
    QString waitFor(const QRegularExpression &ready)
    {
        if (!m_process.waitForStarted(IoTimeoutMs))
            fail(1, u"cannot start %1: %2"_s.arg(m_process.program(), m_process.errorString()));
        QElapsedTimer t;
        t.start();
        QFile log(m_log);
        for (;;) {
            QString text;
            if (log.open(QIODevice::ReadOnly)) {
                text = QString::fromUtf8(log.readAll());
                log.close();
            }
            const QRegularExpressionMatch m = ready.match(text);
            if (m.hasMatch())
                return m.captured(m.lastCapturedIndex());
            if (m_process.state() == QProcess::NotRunning || t.elapsed() > IoTimeoutMs)
                fail(1, u"%1 did not become ready; its output:\n%2"_s.arg(m_process.program(), text));
            QThread::msleep(20);
        }
    }

    Kind m_kind;
    QTemporaryDir m_dir;
    QString m_log;
    QString m_endpoint;
    QProcess m_process;
};

// ---- engine path ------------------------------------------------------------------------

// One session through CoreHost, kept open between blocks of calls. Each block runs a local
// event loop; inside it every call is issued from the previous call's callFinished.
class EngineBench
{
public:
    explicit EngineBench(const QString &endpoint)
    {
        m_config.name = u"bench"_s;
        m_config.route = Sonde::ServerConfig::Route::StreamableHttp;
        m_config.url = QUrl(endpoint);
        using Host = Sonde::CoreHost;
        QObject::connect(&m_host, &Host::sessionChanged, &m_host, [this](const Sonde::SessionSnapshot &s) {
            using State = Sonde::SessionSnapshot::State;
            if (s.state == State::Ready && !m_ready) {
                m_ready = true;
                quit();
            } else if (s.state == State::Failed) {
                stop(u"session failed: "_s + s.lastError.message());
            }
        });
        QObject::connect(&m_host, &Host::callFinished, &m_host, [this](const Sonde::CallOutcome &r) {
            const qint64 ns = m_timer.nsecsElapsed();
            if (r.ticket != m_ticket)
                return;
            if (!r.ok())
                return stop(u"tools/call echo failed: "_s + r.error.message());
            if (m_samples)
                m_samples->push_back(double(ns) / 1000.0);
            if (--m_left > 0)
                next();
            else
                quit();
        });
        QObject::connect(&m_host, &Host::shutdownFinished, &m_host, [this] { quit(); });
        spin([this] { m_host.addServer(m_config); }, u"session start"_s);
    }

    // samples == nullptr: warm-up, not counted.
    void run(int calls, std::vector<double> *samples)
    {
        m_left = calls;
        m_samples = samples;
        spin([this] { next(); }, u"echo calls"_s);
    }

    // A clean shutdown (DELETE of the session) is part of the contract; a hang here is worth
    // knowing about.
    void shutdown() { spin([this] { m_host.shutdown(); }, u"shutdown"_s); }

private:
    void next()
    {
        m_timer.start();
        m_ticket = m_host.call(m_config.name, u"tools/call"_s, m_params);
    }
    // Signals only arrive while spin() runs its loop, but a stray one must not crash.
    void quit()
    {
        if (m_loop)
            m_loop->quit();
    }
    void stop(const QString &error)
    {
        m_error = error;
        quit();
    }
    template<typename F>
    void spin(F start, const QString &what)
    {
        QEventLoop loop;
        m_loop = &loop;
        QTimer::singleShot(IoTimeoutMs * 4, &loop, [&] { stop(what + u" timed out"_s); });
        start();
        loop.exec();
        m_loop = nullptr;
        if (!m_error.isEmpty())
            fail(1, u"engine: "_s + m_error);
    }

    Sonde::CoreHost m_host;
    Sonde::ServerConfig m_config;
    const QJsonObject m_params{{"name"_L1, u"echo"_s},
                               {"arguments"_L1, QJsonObject{{"message"_L1, u"hi"_s}}}};
    QEventLoop *m_loop = nullptr;
    QElapsedTimer m_timer;
    QString m_error;
    std::vector<double> *m_samples = nullptr;
    quint64 m_ticket = 0;
    int m_left = 0;
    bool m_ready = false;
};

// ---- official SDK baseline --------------------------------------------------------------

struct Figures
{
    double p50 = 0, p99 = 0, mean = 0;
};

Figures sdkBaseline(const QString &endpoint, int calls)
{
    QProcess p;
    p.start(u"node"_s, {testsDir() + u"/bench/sdk-echo.mjs"_s, endpoint, QString::number(calls),
                        QString::number(WarmUpCalls)});
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
    if (!o.value("p50_us"_L1).isDouble() || !o.value("p99_us"_L1).isDouble() || !o.value("mean_us"_L1).isDouble())
        fail(1, u"sdk-echo.mjs printed no figures: "_s + QString::fromUtf8(lines.last()) + u' ' + err);
    return {o.value("p50_us"_L1).toDouble(), o.value("p99_us"_L1).toDouble(), o.value("mean_us"_L1).toDouble()};
}

// ---- curl baseline ----------------------------------------------------------------------

// One curl process, waited for, as a shell script would run it. --fail turns an HTTP error
// status into a non-zero exit, so a refused request cannot pass for a fast one.
QByteArray curl(const QStringList &args, const char *step)
{
    QProcess p;
    p.start(CurlPath, QStringList{u"-sS"_s, u"--fail"_s} + args);
    if (!p.waitForFinished(IoTimeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        fail(1, u"curl %1 failed (exit %2): %3"_s.arg(QLatin1StringView(step)).arg(p.exitCode())
                    .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
    return p.readAllStandardOutput();
}

// initialize, notifications/initialized, tools/call echo, DELETE: the same exchange
// sonde-cli performs, in the fewest requests the protocol allows.
double curlOneShotMs(const QString &endpoint)
{
    const QStringList post{u"-H"_s, u"Content-Type: application/json"_s,
                           u"-H"_s, u"Accept: application/json, text/event-stream"_s};
    QElapsedTimer timer;
    timer.start();
    const QByteArray init = curl(post + QStringList{
        u"-D"_s, u"-"_s, u"-d"_s,
        uR"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
        uR"("capabilities":{},"clientInfo":{"name":"curl","version":"1"}}})"_s, endpoint}, "initialize");
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
    curl(post + session + QStringList{u"-d"_s, u"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"_s,
                                      endpoint}, "notifications/initialized");
    const QByteArray echo = curl(post + session + QStringList{
        u"-d"_s, uR"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}})"_s,
        endpoint}, "tools/call");
    if (!echo.contains("Echo: hi"))
        fail(1, u"curl tools/call: unexpected answer "_s + QString::fromUtf8(echo));
    curl(session + QStringList{u"-X"_s, u"DELETE"_s, endpoint}, "DELETE");
    return double(timer.nsecsElapsed()) / 1e6;
}

// ---- sonde-cli one-shot -----------------------------------------------------------------

struct CliRun
{
    double wallMs = 0;
    double ownPeakMiB = 0;
};

// VmHWM of a process that has already exec'd `name`: before exec the child still has a copy
// of this benchmark's address space, whose figure means nothing.
double vmHwmMiB(const QByteArray &statusPath, const QByteArray &name)
{
    QFile f(QString::fromLocal8Bit(statusPath));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    double kib = 0;
    bool execd = false;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Name:"))
            execd = line.mid(5).trimmed() == name;
        else if (line.startsWith("VmHWM:"))
            kib = line.mid(6).trimmed().split(' ').value(0).toDouble();
    }
    return execd ? kib / 1024.0 : 0;
}

// fork/execv + wait4 rather than QProcess, for the exact exit time. The peak RSS is sampled
// from VmHWM (a high-water mark, so sampling only misses growth in the last 2 ms): wait4's
// ru_maxrss also counts the pre-exec copy of this benchmark, which is larger than the CLI.
CliRun cliOneShot(const QList<QByteArray> &argv)
{
    std::vector<char *> args;
    for (const QByteArray &a : argv)
        args.push_back(const_cast<char *>(a.constData()));
    args.push_back(nullptr);
    const QByteArray comm = QFileInfo(QFile::decodeName(argv[0])).fileName().toLocal8Bit().left(15);

    QElapsedTimer timer;
    timer.start();
    const pid_t pid = ::fork();
    if (pid < 0)
        fail(1, u"fork failed"_s);
    if (pid == 0) {
        // Only async-signal-safe calls between fork and exec: the parent has threads.
        const int devnull = ::open("/dev/null", O_RDWR);
        ::dup2(devnull, STDIN_FILENO);
        ::dup2(devnull, STDOUT_FILENO);
        ::dup2(devnull, STDERR_FILENO);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    int status = 0;
    qint64 endNs = 0;
    std::atomic<bool> done{false};
    std::thread reaper([&] {
        if (::waitpid(pid, &status, 0) != pid)
            status = -1;
        endNs = timer.nsecsElapsed();
        done = true;
    });
    const QByteArray statusPath = "/proc/" + QByteArray::number(pid) + "/status";
    double own = 0;
    while (!done) {
        own = std::max(own, vmHwmMiB(statusPath, comm));
        ::usleep(2000);
    }
    reaper.join();
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail(1, u"sonde-cli exited with status %1 (run it by hand to see why)"_s.arg(status));
    return {double(endNs) / 1e6, own};
}

// ---- one server -------------------------------------------------------------------------

void benchServer(Server::Kind kind, const Options &o, const QString &cli)
{
    const Server server(kind);
    const QString endpoint = server.endpoint();
    out(u"== "_s + server.label());
    out(u"   endpoint: "_s + endpoint);
    out(QString());

    out(u"Warm latency: %1 sequential tools/call echo on one session (after %2 warm-up)"_s
            .arg(o.calls).arg(WarmUpCalls));
    std::vector<double> eng;
    {
        EngineBench engine(endpoint);
        engine.run(WarmUpCalls, nullptr);
        for (int done = 0; done < o.calls; done += CallBlock)
            engine.run(std::min(CallBlock, o.calls - done), &eng);
        engine.shutdown();
    }
    // After the engine, not interleaved: the SDK runs its own loop in another process.
    const Figures sdk = sdkBaseline(endpoint, o.calls);
    const double e50 = percentile(eng, 50), e99 = percentile(eng, 99), em = mean(eng);
    out(u"              Sonde engine  SDK client        Sonde vs SDK"_s);
    out(u"  p50  (us)"_s + num(e50, 15) + num(sdk.p50, 12) + overhead(e50, sdk.p50));
    out(u"  p99  (us)"_s + num(e99, 15) + num(sdk.p99, 12) + overhead(e99, sdk.p99));
    out(u"  mean (us)"_s + num(em, 15) + num(sdk.mean, 12) + overhead(em, sdk.mean));
    out(u"  goal: warm p50 at most half of what the official Inspector's --load reports (5.8 ms here),"
        " i.e. <= 2.9 ms: "_s + verdict(e50 <= WarmGoalUs));
    out(QString());

    out(u"Cold one-shot: %1 runs (after 1 warm-up) of sonde-cli --url tools call echo"_s.arg(o.runs));
    const QList<QByteArray> argvCli{QFile::encodeName(cli), "--quiet", "--url", endpoint.toUtf8(),
                                    "tools", "call", "echo", "{\"message\":\"hi\"}"};
    const bool haveCurl = QFileInfo(CurlPath).isExecutable();
    cliOneShot(argvCli);
    if (haveCurl)
        curlOneShotMs(endpoint);
    // Alternated so that background load drifts into both columns alike.
    std::vector<double> cliMs, cliRss, curlMs;
    for (int i = 0; i < o.runs; ++i) {
        const CliRun r = cliOneShot(argvCli);
        cliMs.push_back(r.wallMs);
        cliRss.push_back(r.ownPeakMiB);
        if (haveCurl)
            curlMs.push_back(curlOneShotMs(endpoint));
    }
    const double cMed = percentile(cliMs, 50), cMax = maxOf(cliMs);
    if (haveCurl) {
        const double kMed = percentile(curlMs, 50), kMax = maxOf(curlMs);
        out(u"              sonde-cli   curl x4 (script)   sonde/curl"_s);
        out(u"  median (ms)"_s + num(cMed, 11) + num(kMed, 19) + num(cMed / kMed, 12, 2) + u'x');
        out(u"  max    (ms)"_s + num(cMax, 11) + num(kMax, 19) + num(cMax / kMax, 12, 2) + u'x');
        out(u"  goal: one-shot within 1.5x of the curl floor (median): "_s
            + verdict(cMed <= kMed * ColdGoalRatio));
    } else {
        out(u"              sonde-cli"_s);
        out(u"  median (ms)"_s + num(cMed, 11));
        out(u"  max    (ms)"_s + num(cMax, 11));
        out(u"  curl baseline skipped: "_s + CurlPath + u" not found; goal not evaluated"_s);
    }
    out(u"  sonde-cli peak RSS (median): %1 MiB (own VmHWM)"_s.arg(percentile(cliRss, 50), 0, 'f', 1));
    out(QString());
}

Options parseOptions(const QStringList &args)
{
    Options o;
    auto value = [&](qsizetype &i) {
        if (i + 1 >= args.size())
            fail(2, args[i] + u" needs a value"_s);
        return args[++i];
    };
    auto count = [&](qsizetype &i) {
        bool ok = false;
        const QString name = args[i];
        const int n = value(i).toInt(&ok);
        if (!ok || n < 1)
            fail(2, name + u" wants a positive number"_s);
        return n;
    };
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == "--calls"_L1) o.calls = count(i);
        else if (a == "--runs"_L1) o.runs = count(i);
        else if (a == "--server"_L1) {
            const QString v = value(i);
            if (v != "everything"_L1 && v != "demo"_L1 && v != "both"_L1)
                fail(2, u"--server wants everything, demo or both, got "_s + v);
            o.everything = v != "demo"_L1;
            o.demo = v != "everything"_L1;
        } else if (a == "--help"_L1 || a == "-h"_L1) {
            out(u"usage: sonde-bench-http [--calls N] [--runs N] [--server everything|demo|both]"_s);
            std::exit(0);
        } else fail(2, u"unknown option "_s + a);
    }
    // The SDK baseline runs against both servers, so it is needed whichever is chosen.
    QStringList needed{testsDir() + u"/node_modules/@modelcontextprotocol/sdk/package.json"_s};
    if (o.everything)
        needed << Server::everythingPath();
    for (const QString &path : std::as_const(needed)) {
        if (!QFileInfo::exists(path))
            fail(2, u"%1 does not exist: run ./dev.sh test or npm ci in tests/ first"_s.arg(path));
    }
    return o;
}

} // namespace

int runBenchmark()
{
    const Options o = parseOptions(QCoreApplication::arguments());
    const QString cli = QStringLiteral(SONDE_CLI_PATH);
    if (!QFileInfo(cli).isExecutable())
        fail(2, cli + u" is missing: build the sonde-cli target first"_s);
    out(u"sonde-cli: "_s + cli);
    out(u"curl:      "_s + (QFileInfo(CurlPath).isExecutable() ? CurlPath : u"(not found)"_s));
    out(QString());
    if (o.everything)
        benchServer(Server::Kind::Everything, o, cli);
    if (o.demo)
        benchServer(Server::Kind::Demo, o, cli);
    return 0;
}

int main(int argc, char **argv)
{
    // Every child (node, curl, sonde-cli) inherits this environment: a proxy variable would
    // send loopback traffic through a proxy and measure that instead (or leave the machine).
    for (const char *name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
        ::unsetenv(name);
    QCoreApplication app(argc, argv);
    try {
        return runBenchmark();
    } catch (const Failure &f) {
        std::fprintf(stderr, "sonde-bench-http: %s\n", qPrintable(f.message));
        return f.code;
    }
}

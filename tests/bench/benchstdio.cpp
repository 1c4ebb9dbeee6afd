// SPDX-License-Identifier: MIT
// sonde-bench-stdio: Sonde's stdio path against the least code that can talk to the same
// server, in one run, so the figures are compared on the same machine under the same load.
#include "config/serverconfig.h"
#include "engine/corehost.h"
#include "engine/values.h"
#include "session/sessionsnapshot.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <numeric>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

constexpr int WarmUpCalls = 100;
constexpr int CallBlock = 100;
constexpr int IoTimeoutMs = 30'000;

struct Options
{
    bool pinned = true;
    int calls = 2000;
    int runs = 10;
    QString program;
    QStringList arguments;
};

// Thrown, not exit()ed, so that CoreHost and QProcess destructors still kill the servers:
// server-everything ignores stdin EOF and would outlive us. Never thrown through Qt's event
// loop: every caller runs outside one.
struct Failure
{
    int code;
    QString message;
};
[[noreturn]] void fail(int code, const QString &message) { throw Failure{code, message}; }

void out(const QString &line) { std::printf("%s\n", qPrintable(line)); std::fflush(stdout); }

// Nearest-rank percentile: always a value that was actually measured.
double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}
double mean(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }
QString num(double v, int width, int prec = 1) { return QString::number(v, 'f', prec).rightJustified(width); }
// Relative and absolute: a fast server makes a fixed cost look large in percent.
QString overhead(double ours, double base)
{
    auto sign = [](double v) -> QString { return (v >= 0 ? u"+"_s : QString()) + QString::number(v, 'f', 1); };
    const QString text = sign((ours - base) / base * 100.0) + u" % ("_s + sign(ours - base) + u" us)"_s;
    return text.rightJustified(22);
}

QByteArray echoCall(int id)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id)
         + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hi\"}}}\n";
}

// ---- engine path ------------------------------------------------------------------------

// One session through CoreHost, kept open between blocks of calls. Each block runs a local
// event loop; inside it every call is issued from the previous call's callFinished.
class EngineBench
{
public:
    explicit EngineBench(const Options &o)
    {
        m_config.name = u"bench"_s;
        m_config.program = o.program;
        m_config.arguments = o.arguments;
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

    // A clean shutdown is part of the contract; a hang here is worth knowing about.
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

// ---- raw pipe baseline ------------------------------------------------------------------

// Reads lines until the response to `id`. Every line goes through QJsonDocument because the
// engine parses every line too; a substring search would flatter the baseline.
void readResponse(QProcess &p, int id)
{
    for (;;) {
        while (!p.canReadLine()) {
            if (!p.waitForReadyRead(IoTimeoutMs))
                fail(1, u"raw pipe: no answer to id %1 (%2)"_s.arg(id).arg(p.errorString()));
        }
        const QJsonObject m = QJsonDocument::fromJson(p.readLine()).object();
        const QJsonValue mid = m.value("id"_L1);
        if (m.contains("method"_L1)) {
            // server-everything asks roots/list after initialized; answering keeps it quiet.
            if (!mid.isUndefined())
                p.write(QJsonDocument(QJsonObject{{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, mid},
                                                  {"result"_L1, QJsonObject{{"roots"_L1, QJsonArray()}}}})
                            .toJson(QJsonDocument::Compact) + '\n');
            continue;
        }
        if (mid.toInt(-1) == id) {
            if (m.contains("error"_L1) || m.value("result"_L1).toObject().value("isError"_L1).toBool())
                fail(1, u"raw pipe: id %1 answered with an error"_s.arg(id));
            return;
        }
    }
}

void startRaw(QProcess &p, const Options &o)
{
    // stderr is discarded: the baseline does the least work possible.
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(o.program, o.arguments);
    if (!p.waitForStarted(IoTimeoutMs))
        fail(1, u"cannot start %1: %2"_s.arg(o.program, p.errorString()));
    p.write(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":)"
            R"("2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})"
            "\n");
    readResponse(p, 0);
    p.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
}

// The same shutdown sonde-cli performs by default: close stdin, 100 ms grace, then SIGTERM.
void stopRaw(QProcess &p)
{
    p.closeWriteChannel();
    if (!p.waitForFinished(100)) {
        p.terminate();
        if (!p.waitForFinished(IoTimeoutMs))
            p.kill();
    }
    p.waitForFinished();
}

void rawCalls(QProcess &p, int &id, int calls, std::vector<double> *samples)
{
    QElapsedTimer timer;
    for (int end = id + calls; id < end; ++id) {
        timer.start();
        p.write(echoCall(id));
        readResponse(p, id);
        const qint64 ns = timer.nsecsElapsed();
        if (samples)
            samples->push_back(double(ns) / 1000.0);
    }
}

double rawOneShotMs(const Options &o)
{
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    startRaw(p, o);
    p.write(echoCall(1));
    readResponse(p, 1);
    stopRaw(p);
    return double(timer.nsecsElapsed()) / 1e6;
}

// ---- sonde-cli one-shot -----------------------------------------------------------------

struct CliRun
{
    double wallMs = 0;
    double ownPeakMiB = 0;     // sonde-cli alone
    double withChildMiB = 0;   // wait4's figure
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

// fork/execv + wait4 rather than QProcess, for the rusage. But on Linux ru_maxrss of a reaped
// child is the maximum over it and every descendant it reaped itself, so it reports node, not
// sonde-cli. The CLI's own peak comes from sampling its VmHWM (a high-water mark, so sampling
// only misses growth in the last 2 ms) while another thread blocks in wait4 for the exact
// exit time.
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
    rusage usage{};
    qint64 endNs = 0;
    std::atomic<bool> done{false};
    std::thread reaper([&] {
        if (::wait4(pid, &status, 0, &usage) != pid)
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
    return {double(endNs) / 1e6, own, double(usage.ru_maxrss) / 1024.0};
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
        else if (a == "--server-command"_L1) { o.program = value(i); o.pinned = false; }
        else if (a == "--server-arg"_L1) o.arguments << value(i);
        else if (a == "--help"_L1 || a == "-h"_L1) {
            out(u"usage: sonde-bench-stdio [--calls N] [--runs N] [--server-command PROGRAM [--server-arg A]...]"_s);
            std::exit(0);
        } else fail(2, u"unknown option "_s + a);
    }
    if (o.pinned && !o.arguments.isEmpty())
        fail(2, u"--server-arg needs --server-command"_s);
    if (o.pinned) {
        const QString path = QStringLiteral(SONDE_SOURCE_DIR)
                           + u"/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s;
        if (!QFileInfo::exists(path))
            fail(2, u"%1 does not exist: run ./dev.sh test or npm ci in tests/ first"_s.arg(path));
        o.program = u"node"_s;
        o.arguments = {path, u"stdio"_s};
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

    out(u"server:    "_s + QStringList(QStringList{o.program} + o.arguments).join(u' ')
        + (o.pinned ? u"  (pinned server-everything)"_s : u"  (--server-command)"_s));
    out(u"sonde-cli: "_s + cli);
    out(QString());

    out(u"Warm latency: %1 sequential tools/call echo on one session (after %2 warm-up)"_s
            .arg(o.calls).arg(WarmUpCalls));
    std::vector<double> eng, raw;
    {
        EngineBench engine(o);
        QProcess pipe;
        startRaw(pipe, o);
        int id = 1;
        engine.run(WarmUpCalls, nullptr);
        rawCalls(pipe, id, WarmUpCalls, nullptr);
        // Alternating blocks, both sessions open throughout: background load and frequency
        // drift then land in both columns alike instead of in whichever ran second.
        for (int done = 0; done < o.calls; done += CallBlock) {
            const int n = std::min(CallBlock, o.calls - done);
            engine.run(n, &eng);
            rawCalls(pipe, id, n, &raw);
        }
        stopRaw(pipe);
        engine.shutdown();
    }
    const double e50 = percentile(eng, 50), e99 = percentile(eng, 99);
    const double r50 = percentile(raw, 50), r99 = percentile(raw, 99);
    out(u"              Sonde engine    raw pipe              overhead"_s);
    out(u"  p50  (us)"_s + num(e50, 15) + num(r50, 12) + overhead(e50, r50));
    out(u"  p99  (us)"_s + num(e99, 15) + num(r99, 12) + overhead(e99, r99));
    out(u"  mean (us)"_s + num(mean(eng), 15) + num(mean(raw), 12) + overhead(mean(eng), mean(raw)));
    const bool warmMet = e50 <= r50 * 1.10 && e99 <= r99 * 1.10;
    out(u"  goal: client overhead within 10 % of the raw pipe (p50 and p99): "_s
        + (warmMet ? u"MET"_s : u"NOT MET"_s));
    out(QString());

    out(u"Cold one-shot: %1 runs (after 1 warm-up) of sonde-cli tools call echo"_s.arg(o.runs));
    QList<QByteArray> argvCli{QFile::encodeName(cli), "--quiet", "--command", QFile::encodeName(o.program)};
    for (const QString &a : o.arguments)
        argvCli << "--arg" << a.toLocal8Bit();
    argvCli << "tools" << "call" << "echo" << "{\"message\":\"hi\"}";
    cliOneShot(argvCli);
    rawOneShotMs(o);
    // Alternated so that background load drifts into both columns alike.
    std::vector<double> cliMs, cliRss, cliTreeRss, rawMs;
    for (int i = 0; i < o.runs; ++i) {
        const CliRun r = cliOneShot(argvCli);
        cliMs.push_back(r.wallMs);
        cliRss.push_back(r.ownPeakMiB);
        cliTreeRss.push_back(r.withChildMiB);
        rawMs.push_back(rawOneShotMs(o));
    }
    const double cMed = percentile(cliMs, 50), rMed = percentile(rawMs, 50);
    const double cMax = *std::max_element(cliMs.begin(), cliMs.end());
    const double rMax = *std::max_element(rawMs.begin(), rawMs.end());
    out(u"              sonde-cli   server alone   difference"_s);
    out(u"  median (ms)"_s + num(cMed, 11) + num(rMed, 15) + num(cMed - rMed, 13));
    out(u"  max    (ms)"_s + num(cMax, 11) + num(rMax, 15) + num(cMax - rMax, 13));
    const bool coldMet = cMed - rMed <= 50.0;
    out(u"  goal: a one-shot that exits within 50 ms of the server's own start-up and shutdown (median): "_s
        + (coldMet ? u"MET"_s : u"NOT MET"_s));
    out(u"  sonde-cli peak RSS (median): %1 MiB (own VmHWM; wait4's ru_maxrss, which also counts"
        " the server it reaps: %2 MiB)"_s
            .arg(percentile(cliRss, 50), 0, 'f', 1)
            .arg(percentile(cliTreeRss, 50), 0, 'f', 1));
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    try {
        return runBenchmark();
    } catch (const Failure &f) {
        std::fprintf(stderr, "sonde-bench-stdio: %s\n", qPrintable(f.message));
        return f.code;
    }
}

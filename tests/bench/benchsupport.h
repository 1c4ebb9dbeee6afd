// SPDX-License-Identifier: MIT
#pragma once
// What the benchmark programs share: failing with an exit code, the figures and their
// printing, the command line, the servers under test, sonde-cli one-shots with their peak
// RSS, and one session through CoreHost driven from outside an event loop.
//
// The paths come from the target's compile definitions: SONDE_SOURCE_DIR (the source tree,
// for server-everything and the node fixtures), SONDE_CLI_PATH and SONDE_DEMO_SERVER_PATH.
// What needs one the target does not define is left out.

#include "config/serverconfig.h"
#include "engine/corehost.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "values/callvalues.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace SondeBench {

using namespace Qt::StringLiterals;

inline constexpr int IoTimeoutMs = 30'000;

// ---- failing ----------------------------------------------------------------------------

// Thrown, not exit()ed, so that the CoreHost and QProcess destructors still stop the servers
// (server-everything ignores stdin EOF and would outlive us). Never thrown through Qt's event
// loop: every caller runs outside one, or throws after exec() returns.
struct Failure
{
    int code;
    QString message;
};
[[noreturn]] inline void fail(int code, const QString &message)
{
    throw Failure{code, message};
}

// main()'s body: runs `body` and turns a Failure into "program: message" on stderr and its
// exit code.
template <typename F> int runGuarded(const char *program, F body)
{
    try {
        return body();
    } catch (const Failure &f) {
        std::fprintf(stderr, "%s: %s\n", program, qPrintable(f.message));
        return f.code;
    }
}

// Every child (node, curl, sonde-cli) inherits this environment, and Qt's own network code
// may read it: a proxy variable would send loopback traffic through a proxy and measure that
// instead (or leave the machine). First thing in main().
inline void clearProxyVariables()
{
    for (const char *name :
         {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
        ::unsetenv(name);
}

// ---- figures and their printing ---------------------------------------------------------

inline void out(const QString &line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

// Nearest-rank percentile: always a value that was actually measured (sdk-echo.mjs uses the
// same definition, so sonde-bench-http's two columns are comparable). 0 for no values.
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}
inline double mean(const std::vector<double> &v)
{
    return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}
inline double maxOf(const std::vector<double> &v)
{
    return *std::max_element(v.begin(), v.end());
}
// Records the gaps between the timeouts of a 5 ms timer on the GUI thread: a gap much longer
// than 5 ms is a time in which the window could not have reacted to the user either.
class StallProbe
{
public:
    static constexpr int IntervalMs = 5;

    StallProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(IntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] {
            m_gapsMs.push_back(double(m_clock.nsecsElapsed()) / 1e6);
            m_clock.start();
        });
    }
    void start()
    {
        m_gapsMs.clear();
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    const std::vector<double> &gapsMs() const { return m_gapsMs; }
    double longestStallMs() const
    {
        return m_gapsMs.empty()
                   ? 0
                   : std::max(0.0,
                              *std::max_element(m_gapsMs.begin(), m_gapsMs.end()) - IntervalMs);
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    std::vector<double> m_gapsMs;
};

inline QString num(double v, int width, int prec = 1)
{
    return QString::number(v, 'f', prec).rightJustified(width);
}
// Relative and absolute: a fast server makes a fixed cost look large in percent.
inline QString overhead(double ours, double base)
{
    auto sign = [](double v) -> QString {
        return (v >= 0 ? u"+"_s : QString()) + QString::number(v, 'f', 1);
    };
    const QString text =
        sign((ours - base) / base * 100.0) + u" % ("_s + sign(ours - base) + u" us)"_s;
    return text.rightJustified(22);
}
inline QString verdict(bool met)
{
    return met ? u"MET"_s : u"NOT MET"_s;
}

// ---- CPU time ---------------------------------------------------------------------------

// CPU time, which the load of a shared machine disturbs far less than wall time does. This
// process's, all threads (the engine's, Qt's HTTP threads), in ns.
inline qint64 ownCpuNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
// Another process's (utime + stime of /proc/PID/stat), in ns; -1 if unreadable. The kernel
// keeps it exact but reports it in clock ticks, so only sums over many calls mean anything.
inline qint64 processCpuNs(qint64 pid)
{
    QFile f(u"/proc/%1/stat"_s.arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray stat = f.readAll();
    // After "pid (comm) ": state is field 3, utime 14, stime 15.
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return -1;
    const qint64 ticks = fields[11].toLongLong() + fields[12].toLongLong();
    return ticks * 1'000'000'000 / ::sysconf(_SC_CLK_TCK);
}

// ---- command line -----------------------------------------------------------------------

// The arguments after the program name, option by option. Every mistake fails with exit
// code 2; --help and -h print the usage and exit 0.
class OptionReader
{
public:
    explicit OptionReader(const QStringList &args) : m_args(args) {}

    // handle(option) takes the option's value with value() or count() and returns false for
    // an option it does not know.
    template <typename F> void read(const QString &usage, F handle)
    {
        for (m_at = 1; m_at < m_args.size(); ++m_at) {
            const QString option = m_args[m_at];
            if (handle(option))
                continue;
            if (option == "--help"_L1 || option == "-h"_L1) {
                out(usage);
                std::exit(0);
            }
            fail(2, u"unknown option "_s + option);
        }
    }
    // The current option's value.
    QString value()
    {
        if (m_at + 1 >= m_args.size())
            fail(2, m_args[m_at] + u" needs a value"_s);
        return m_args[++m_at];
    }
    // The current option's value as a number of at least 1.
    int count()
    {
        const QString option = m_args[m_at];
        bool ok = false;
        const int n = value().toInt(&ok);
        if (!ok || n < 1)
            fail(2, option + u" wants a positive number"_s);
        return n;
    }

private:
    QStringList m_args;
    qsizetype m_at = 0;
};

// The value of --server everything|demo|both.
inline void chooseServers(const QString &value, bool &everything, bool &demo)
{
    if (value != "everything"_L1 && value != "demo"_L1 && value != "both"_L1)
        fail(2, u"--server wants everything, demo or both, got "_s + value);
    everything = value != "demo"_L1;
    demo = value != "everything"_L1;
}

// Something npm installs into tests/node_modules.
inline void requireNodeModule(const QString &path)
{
    if (!QFileInfo::exists(path))
        fail(2, u"%1 does not exist: run ./dev.sh test or npm ci in tests/ first"_s.arg(path));
}

// A program of this build; `targets` says which to build ("sonde-cli target").
inline void requireBuilt(const QString &program, const QString &targets)
{
    if (!QFileInfo(program).isExecutable())
        fail(2, program + u" is missing: build the "_s + targets + u" first"_s);
}

#ifdef SONDE_CLI_PATH
// This build's sonde-cli, which has to be there.
inline QString cliPath()
{
    const QString cli = QStringLiteral(SONDE_CLI_PATH);
    requireBuilt(cli, u"sonde-cli target"_s);
    return cli;
}
#endif

// ---- /proc and sonde-cli one-shots ------------------------------------------------------

// A "Vm...:   1234 kB" field of /proc/<pid>/status in MiB, or -1. With `name`, only once the
// process has exec'd it: before exec a child is still a copy of its parent, whose figure
// means nothing.
inline double statusMiB(const QString &path, const QByteArray &field, const QByteArray &name = {})
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    double kib = -1;
    bool execd = name.isEmpty();
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Name:"))
            execd = execd || line.mid(5).trimmed() == name;
        else if (line.startsWith(QByteArray(field + ':')))
            kib = line.mid(field.size() + 1).trimmed().split(' ').value(0).toDouble();
    }
    return execd && kib >= 0 ? kib / 1024.0 : -1;
}
inline double selfMiB(const QByteArray &field)
{
    return statusMiB(u"/proc/self/status"_s, field);
}

struct CliRun
{
    double wallMs = 0;
    double ownPeakMiB = 0;   // the program alone
    double withChildMiB = 0; // wait4's figure
};

// fork/execv + wait4 rather than QProcess, for the exact exit time and the rusage. But on
// Linux ru_maxrss of a reaped child is the maximum over it, the pre-exec copy of this
// benchmark (larger than the CLI) and every descendant it reaped itself (a stdio server), so
// it is not sonde-cli's figure. The CLI's own peak comes from sampling its VmHWM (a
// high-water mark, so sampling only misses growth in the last 2 ms) while another thread
// blocks in wait4.
// `expectedExit`: the status the run must end with (1 for an answer the CLI must refuse).
inline CliRun cliOneShot(const QList<QByteArray> &argv, int expectedExit = 0)
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
    const QString statusPath = u"/proc/%1/status"_s.arg(pid);
    double own = 0;
    while (!done) {
        own = std::max(own, statusMiB(statusPath, "VmHWM", comm));
        ::usleep(2000);
    }
    reaper.join();
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != expectedExit)
        fail(1, u"sonde-cli exited with status %1 (run it by hand to see why)"_s.arg(status));
    return {double(endNs) / 1e6, own, double(usage.ru_maxrss) / 1024.0};
}

// `runs` launches of `argv` in a row, each ending with `expectedExit`: the medians of the
// wall time and of the program's own peak RSS.
inline CliRun cliMedians(const QList<QByteArray> &argv, int runs, int expectedExit = 0)
{
    std::vector<double> ms, peak;
    for (int i = 0; i < runs; ++i) {
        const CliRun r = cliOneShot(argv, expectedExit);
        ms.push_back(r.wallMs);
        peak.push_back(r.ownPeakMiB);
    }
    return {percentile(ms, 50), percentile(peak, 50), 0};
}

// ---- the servers under test -------------------------------------------------------------

#ifdef SONDE_SOURCE_DIR
inline QString testsDir()
{
    return QStringLiteral(SONDE_SOURCE_DIR) + u"/tests"_s;
}
inline QString everythingPath()
{
    return testsDir() + u"/node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s;
}
#endif

#ifdef SONDE_DEMO_SERVER_PATH
inline QString demoServerPath()
{
    return QStringLiteral(SONDE_DEMO_SERVER_PATH);
}
#endif

#if defined(SONDE_SOURCE_DIR) && defined(SONDE_DEMO_SERVER_PATH)
// One server over Streamable HTTP on a loopback port, for as long as the object lives.
// Output goes to a file, not a pipe: server-everything logs every request on stdout, and a
// pipe nobody drains while we sit in waitFor* or wait4 would fill and stall the server.
class Server
{
public:
    enum class Kind
    {
        Everything,
        Demo,
        V2Sdk // the official v2 SDK server, 2026-07-28 only (tests/fixtures/v2-server.mjs)
    };

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
        } else if (kind == Kind::V2Sdk) {
            m_process.start(u"node"_s, {testsDir() + u"/fixtures/v2-server.mjs"_s});
            m_endpoint = waitFor(QRegularExpression(u"^(http://127\\.0\\.0\\.1:\\d+/mcp)$"_s,
                                                    QRegularExpression::MultilineOption));
        } else {
            m_process.start(demoServerPath(), {u"--http"_s, u"127.0.0.1:0"_s});
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
        if (m_kind != Kind::Demo)
            m_process.kill();
        else
            m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished();
    }

    QString endpoint() const { return m_endpoint; }
    qint64 pid() const { return m_process.processId(); }
    QString label() const
    {
        if (m_kind == Kind::V2Sdk)
            return u"v2 SDK server (pinned @modelcontextprotocol/server, node; 2026-07-28 only)"_s;
        return m_kind == Kind::Everything
                   ? u"server-everything (pinned reference, node, streamableHttp)"_s
                   : u"sonde-demo-server --http (Sonde's own, C++)"_s;
    }
    // A resource each server can read in a new session without any setup.
    QString readUri() const
    {
        return m_kind == Kind::Everything ? u"demo://resource/dynamic/text/1"_s
                                          : u"demo://notes/1"_s;
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
                fail(1,
                     u"%1 did not become ready; its output:\n%2"_s.arg(m_process.program(), text));
            QThread::msleep(20);
        }
    }

    Kind m_kind;
    QTemporaryDir m_dir;
    QString m_log;
    QString m_endpoint;
    QProcess m_process;
};
#endif

// ---- the engine -------------------------------------------------------------------------

// The one server an EngineSession adds.
inline Sonde::ServerConfig stdioConfig(const QString &program, const QStringList &arguments)
{
    Sonde::ServerConfig config;
    config.name = u"bench"_s;
    config.program = program;
    config.arguments = arguments;
    // The baselines beside it (the SDK client, the raw floors) speak 2025-11-25, and the
    // recovery figures are of its session expiry: the demo server speaks both, so say which.
    config.era = Sonde::ServerConfig::Era::Initialize;
    return config;
}
inline Sonde::ServerConfig httpConfig(const QString &endpoint)
{
    Sonde::ServerConfig config;
    config.name = u"bench"_s;
    config.route = Sonde::ServerConfig::Route::StreamableHttp;
    config.url = QUrl(endpoint);
    config.era = Sonde::ServerConfig::Era::Initialize; // as in stdioConfig; modern rows say so
    return config;
}

// One server through CoreHost, as a front end drives it: each step is issued from spin(),
// which runs a local event loop until the step's answer quit()s it, a failure stop()s it or
// the time is up. Connect to host() first, then start().
class EngineSession
{
public:
    explicit EngineSession(const Sonde::ServerConfig &config) : m_config(config)
    {
        using Host = Sonde::CoreHost;
        QObject::connect(&m_host, &Host::sessionChanged, &m_host,
                         [this](const Sonde::SessionSnapshot &s) {
                             using State = Sonde::SessionSnapshot::State;
                             if (s.state == State::Ready && !m_ready) {
                                 m_ready = true;
                                 quit();
                             } else if (s.state == State::Failed) {
                                 stop(u"session failed: "_s + s.lastError.message());
                             }
                         });
        QObject::connect(&m_host, &Host::shutdownFinished, &m_host, [this] { quit(); });
    }

    Sonde::CoreHost &host() { return m_host; }
    const QString &name() const { return m_config.name; }

    void start()
    {
        spin([this] { m_host.addServer(m_config); }, u"session start"_s);
    }
    // A clean shutdown (over HTTP, the DELETE of the session) is part of the contract; a hang
    // here is worth knowing about.
    void shutdown()
    {
        spin([this] { m_host.shutdown(); }, u"shutdown"_s);
    }

    template <typename F> void spin(F start, const QString &what)
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

private:
    Sonde::CoreHost m_host;
    Sonde::ServerConfig m_config;
    QEventLoop *m_loop = nullptr;
    QString m_error;
    bool m_ready = false;
};

// Warm tools/call echo on one session, kept open between blocks of calls. Each block runs one
// local event loop; inside it every call is issued from the previous call's callFinished.
class EchoBench
{
public:
    explicit EchoBench(const Sonde::ServerConfig &config) : m_engine(config)
    {
        // Until stopRecording(): the frames the engine sends, the last one per method.
        m_recording = QObject::connect(
            &m_engine.host(), &Sonde::CoreHost::transcriptBatch, &m_engine.host(),
            [this](const Sonde::TranscriptBatch &batch) {
                for (const Sonde::TranscriptEvent &e : batch) {
                    if (e.direction != Sonde::TranscriptEvent::Direction::Outgoing)
                        continue;
                    const QString method =
                        QJsonDocument::fromJson(e.raw).object().value("method"_L1).toString();
                    m_sent.insert(method, e.raw);
                    if (method == m_awaited)
                        m_engine.quit();
                }
            });
        QObject::connect(&m_engine.host(), &Sonde::CoreHost::callFinished, &m_engine.host(),
                         [this](const Sonde::CallOutcome &r) {
                             const qint64 ns = m_timer.nsecsElapsed();
                             if (r.ticket != m_ticket)
                                 return;
                             if (!r.ok())
                                 return m_engine.stop(u"tools/call echo failed: "_s +
                                                      r.error.message());
                             if (m_samples)
                                 m_samples->push_back(double(ns) / 1000.0);
                             if (--m_left > 0)
                                 next();
                             else
                                 m_engine.quit();
                         });
        m_engine.start();
    }

    // samples == nullptr: warm-up, not counted.
    void run(int calls, std::vector<double> *samples)
    {
        m_left = calls;
        m_samples = samples;
        m_engine.spin([this] { next(); }, u"echo calls"_s);
    }
    void shutdown() { m_engine.shutdown(); }

    // The last frame the engine sent for `method` (empty if it sent none in `waitMs`): the
    // transcript comes in batches, so this may wait for the next one.
    QByteArray sentFrame(const QString &method, int waitMs = IoTimeoutMs)
    {
        if (!m_sent.contains(method)) {
            m_awaited = method;
            QTimer limit;
            limit.setSingleShot(true);
            QObject::connect(&limit, &QTimer::timeout, &limit, [this] { m_engine.quit(); });
            m_engine.spin([&] { limit.start(waitMs); }, u"waiting for "_s + method);
            m_awaited.clear();
        }
        return m_sent.value(method);
    }
    // The timed calls pay for no parsing of their own frames.
    void stopRecording() { QObject::disconnect(m_recording); }

private:
    void next()
    {
        m_timer.start();
        m_ticket = m_engine.host().call(m_engine.name(), u"tools/call"_s, m_params);
    }

    EngineSession m_engine;
    const QJsonObject m_params{{"name"_L1, u"echo"_s},
                               {"arguments"_L1, QJsonObject{{"message"_L1, u"hi"_s}}}};
    QElapsedTimer m_timer;
    std::vector<double> *m_samples = nullptr;
    quint64 m_ticket = 0;
    int m_left = 0;
    QMetaObject::Connection m_recording;
    QHash<QString, QByteArray> m_sent;
    QString m_awaited;
};

} // namespace SondeBench

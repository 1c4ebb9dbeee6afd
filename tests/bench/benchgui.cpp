// SPDX-License-Identifier: MIT
// sonde-bench-gui: the window under a notification flood. The real MainWindow, connected to
// the demo server over stdio with the Transcript tab showing, while the demo server's flood
// tool sends log notifications at a fixed rate: how long the GUI thread stalls, whether every
// notification reaches the history (recorded and paged into the Transcript tab as the window
// does; counted in the database), and what the process costs in memory when idle.
// The flood runs twice in one run: with the in-memory store bounded to the tail the recording
// window keeps (MainWindow::showRecording), then with the store's full bounds (the window
// before, and without a history), so the memory after each can be put side by side.
// Then the same idle figure for the real `sonde` binary, started on its own.
#include "application/history/storehistorycatalog.h"
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverviewstore.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "application/workspace/workspacesettings.h"
#include "apps/apppane.h"
#include "benchsupport.h"
#include "config/workspace.h"
#include "history/historypanel.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "protocol/mcpapps.h"
#include "tools/schemaformwidget.h"
#include "tools/toolspanel.h"
#include "transcript/transcriptpanel.h"
#include "util/memorypolicy.h"
#include "window/mainwindow.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <vector>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr int SetupTimeoutMs = 30'000;
constexpr double StallGoalMs = 50.0;
constexpr double IdleGoalMiB = 45.0;
constexpr double LaunchGoalMs = 500.0;
// The official web Inspector's launch to its tool list, as issue 11 measured it.
constexpr double WebInspectorLaunchMs = 4100.0;
constexpr double SwitchGoalMs = 50.0;
constexpr int LaunchRuns = 5;
constexpr int SwitchRounds = 20;
constexpr double WarmAppGoalMs = 300.0;
constexpr int WarmApps = 10;
constexpr int GeneratedTools = 1000;
constexpr int SondeSettleMs = 3'000;
// Before reading the idle figure: the first paint, the tool list and the allocator's
// settling after connecting happen in this time, and an idle window is what is measured.
constexpr int IdleSettleMs = 1'000;
const QString ServerName = u"demo"_s;

struct Options
{
    int rate = 10'000;
    double seconds = 10.0;
    // --history-window FILE SERVER: only the History tab over that history (sonde-bench-history
    // runs it as a child, so its memory is the window's own).
    QString historyFile, historyServer;
};

QString mib(double v)
{
    return QString::number(v, 'f', 1) + u" MiB"_s;
}

// Runs the event loop until `done` holds (polled every 10 ms) or the time is up. The GUI
// thread is the one being measured, so the harness waits in its event loop rather than
// sleeping, and never throws from inside it.
bool spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    if (!done())
        loop.exec();
    return done();
}
void spinFor(int ms)
{
    QElapsedTimer t;
    t.start();
    spinUntil([&] { return t.elapsed() >= ms; }, ms + 1000);
}

// Counts the flood's notifications as the store accepts them, by their index ("flood i/N"),
// so a duplicate cannot hide a loss and the store dropping its oldest rows (a flood larger
// than its capacity) cannot look like one.
class FloodCounter
{
public:
    FloodCounter(Sonde::TranscriptStore *store, qint64 expected)
        : m_store(store), m_seen(size_t(std::max<qint64>(expected, 0)), false)
    {
        m_appended = QObject::connect(store, &Sonde::TranscriptStore::rowsAppended, store,
                                      [this](int first, int last) {
                                          for (int row = first; row <= last; ++row)
                                              count(m_store->event(row));
                                      });
    }
    // The store outlives a flood's counter: the next flood counts with a counter of its own.
    ~FloodCounter() { QObject::disconnect(m_appended); }
    FloodCounter(const FloodCounter &) = delete;
    FloodCounter &operator=(const FloodCounter &) = delete;
    qint64 received() const { return m_received; }
    qint64 distinct() const { return m_distinct; }
    // What the store still holds at the end (all of it when the flood fits its capacity).
    qint64 retained() const
    {
        qint64 n = 0;
        for (int row = 0; row < m_store->size(); ++row)
            n += isFlood(m_store->event(row)) ? 1 : 0;
        return n;
    }

private:
    static bool isFlood(const Sonde::TranscriptEvent &e)
    {
        return e.direction == Sonde::TranscriptEvent::Direction::Incoming &&
               e.raw.contains("\"logger\":\"flood\"");
    }
    void count(const Sonde::TranscriptEvent &e)
    {
        if (!isFlood(e))
            return;
        ++m_received;
        static const QByteArray marker = "\"data\":\"flood ";
        const qsizetype at = e.raw.indexOf(marker);
        if (at < 0)
            return;
        const qsizetype from = at + marker.size();
        const qsizetype slash = e.raw.indexOf('/', from);
        bool ok = false;
        const qint64 i = e.raw.mid(from, slash - from).toLongLong(&ok);
        if (ok && i >= 1 && size_t(i) <= m_seen.size() && !m_seen[size_t(i - 1)]) {
            m_seen[size_t(i - 1)] = true;
            ++m_distinct;
        }
    }

    Sonde::TranscriptStore *m_store;
    QMetaObject::Connection m_appended;
    std::vector<bool> m_seen;
    qint64 m_received = 0;
    qint64 m_distinct = 0;
};

// The flood's notifications in the history, read back once the recorder committed them: how
// many rows, and how many distinct indices ("flood i/N") among them.
QPair<qint64, qint64> floodInHistory(const QString &path, qint64 expected, qint64 fromMs)
{
    Sonde::HistoryStore store;
    QString error;
    if (!store.open(path, &error))
        fail(1, error);
    Sonde::HistoryFilter f;
    f.server = ServerName;
    f.method = u"notifications/message"_s;
    f.fromMs = fromMs; // this flood's, not an earlier one's
    std::vector<bool> seen(size_t(std::max<qint64>(expected, 0)), false);
    qint64 rows = 0, distinct = 0;
    for (qint64 offset = 0;; offset += 10'000) {
        const QList<QJsonObject> page = store.records(f, offset, 10'000);
        for (const QJsonObject &r : page) {
            const QJsonObject params = r.value("msg"_L1).toObject().value("params"_L1).toObject();
            if (params.value("logger"_L1).toString() != "flood"_L1)
                continue;
            ++rows;
            const QString data = params.value("data"_L1).toString(); // "flood i/N"
            const qint64 i = data.section(u' ', 1, 1).section(u'/', 0, 0).toLongLong();
            if (i >= 1 && size_t(i) <= seen.size() && !seen[size_t(i - 1)]) {
                seen[size_t(i - 1)] = true;
                ++distinct;
            }
        }
        if (page.size() < 10'000)
            break;
    }
    return {rows, distinct};
}

// A temporary HOME for one run of the real binary, so its settings and first run are its own.
QProcessEnvironment freshHome(const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"HOME"_s, home.path());
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    env.insert(u"XDG_CACHE_HOME"_s, home.filePath(u"cache"_s));
    return env;
}

void stop(QProcess &p)
{
    p.terminate();
    if (!p.waitForFinished(5000)) {
        p.kill();
        p.waitForFinished();
    }
}

// The child processes of a process, over all its threads (the demo servers are children of
// the engine thread); empty when the kernel has no /proc/PID/task/TID/children.
QStringList childPids(const QString &proc, bool *known)
{
    QStringList kids;
    *known = false;
    const QStringList tasks = QDir(proc + u"/task"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        QFile children(proc + u"/task/"_s + task + u"/children"_s);
        if (!children.open(QIODevice::ReadOnly))
            continue;
        *known = true;
        kids += QString::fromLatin1(children.readAll()).split(u' ', Qt::SkipEmptyParts);
    }
    return kids;
}

struct IdleFigure
{
    double rssMiB = -1;
    double childrenMiB = 0;
    QStringList children;
    bool childrenKnown = false;
    bool webEngineMapped = false;
};

// Whether the process has mapped QtWebEngine's library (the App view plugin loads it the
// first time an App is shown, never before).
bool webEngineMapped(const QString &proc)
{
    QFile maps(proc + u"/maps"_s);
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("libQt6WebEngineCore");
}

// The real binary, on its own: what a user starts, idle after SondeSettleMs. With `saved`
// servers, they are the saved workspace it starts with (and connects to, as a user's saved
// servers are).
IdleFigure idleSonde(const QString &sonde, const QStringList &args,
                     const QList<Sonde::Workspace::Server> &saved = {})
{
    QTemporaryDir home;
    if (!home.isValid())
        fail(2, u"cannot create a temporary directory for sonde's HOME"_s);
    if (!saved.isEmpty()) {
        // Where sonde's QSettings (organization and application "Sonde") live under this HOME.
        QSettings settings(home.filePath(u"config/Sonde/Sonde.conf"_s), QSettings::IniFormat);
        Sonde::Workspace w;
        w.servers = saved;
        w.current = saved.first().config.name;
        if (!Sonde::WorkspaceSettings::saveNow(settings, w))
            fail(2, u"cannot write the saved workspace of the one-server run"_s);
    }
    QProcess p;
    p.setProcessEnvironment(freshHome(home));
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(sonde, args);
    if (!p.waitForStarted(SetupTimeoutMs))
        fail(2, u"cannot start %1: %2"_s.arg(sonde, p.errorString()));
    const QString proc = u"/proc/%1"_s.arg(p.processId());
    spinFor(SondeSettleMs);
    IdleFigure f;
    const bool alive = p.state() == QProcess::Running;
    if (alive) {
        f.rssMiB = statusMiB(proc + u"/status"_s, "VmRSS", "sonde");
        f.webEngineMapped = webEngineMapped(proc);
        f.children = childPids(proc, &f.childrenKnown);
        for (const QString &kid : std::as_const(f.children))
            f.childrenMiB += std::max(0.0, statusMiB(u"/proc/%1/status"_s.arg(kid), "VmRSS"));
    }
    stop(p);
    if (!alive || f.rssMiB < 0)
        fail(2,
             u"sonde exited or could not be read within %1 ms (exit code %2)"_s.arg(SondeSettleMs)
                 .arg(p.exitCode()));
    return f;
}

void measureSonde(const QString &sonde, const QString &demo)
{
    out(u"Idle memory of the real sonde binary %1 s after start (offscreen; VmRSS of sonde alone,"
        " its demo server children apart)"_s.arg(SondeSettleMs / 1000));
    // The baselines: the same window connected to one demo server over stdio (a saved
    // workspace, no first-run demos), and the window with one imported server it does not
    // connect to (imported servers wait to be asked), so no session at all.
    QTemporaryDir dir;
    const QString config = dir.filePath(u"one.json"_s);
    QFile f(config);
    if (!dir.isValid() || !f.open(QIODevice::WriteOnly))
        fail(2, u"cannot write a config file for the unconnected run"_s);
    f.write(
        QJsonDocument(QJsonObject{{"mcpServers"_L1,
                                   QJsonObject{{"demo"_L1, QJsonObject{{"command"_L1, demo}}}}}})
            .toJson());
    f.close();
    Sonde::Workspace::Server stdioDemo;
    stdioDemo.config.name = u"demo"_s;
    stdioDemo.config.program = demo;
    const IdleFigure first = idleSonde(sonde, {u"--no-saved-workspace"_s});
    const IdleFigure one = idleSonde(sonde, {}, {stdioDemo});
    const IdleFigure none = idleSonde(sonde, {u"--no-saved-workspace"_s, u"--import"_s, config});
    auto line = [](const QString &what, const IdleFigure &i) {
        out(u"  %1 %2   children: %3 (%4)   QtWebEngine mapped: %5"_s.arg(what, -50)
                .arg(mib(i.rssMiB), 9)
                .arg(i.childrenKnown ? QString::number(i.children.size()) : u"unknown"_s)
                .arg(mib(i.childrenMiB))
                .arg(i.webEngineMapped ? u"yes"_s : u"no"_s));
    };
    line(u"first run: the demo over stdio and over HTTP"_s, first);
    line(u"baseline: one stdio demo server (saved workspace)"_s, one);
    line(u"floor: the window, no session (an imported server)"_s, none);
    out(u"  goal: idle memory connected to the two demo servers under 45 MiB RSS: "_s +
        verdict(first.rssMiB < IdleGoalMiB &&
                (!first.childrenKnown || first.children.size() == 2)));
    out(u"  goal: no App shown, QtWebEngine not loaded: "_s +
        verdict(!first.webEngineMapped && !one.webEngineMapped && !none.webEngineMapped));
    out(QString());
}

// Launch to the tool list visible: `sonde --exit-when-ready` prints a line when the first
// server's tools are on screen, and this measures from starting the process to that line,
// so loading the program and Qt, the platform plugin and the first paint all count.
void measureLaunch(const QString &sonde)
{
    out(u"Launch to the tool list visible on the demo server (real sonde binary, first run, "
        "offscreen, on the Tools tab, %1 runs)"_s.arg(LaunchRuns));
    std::vector<double> wall, inside;
    for (int run = 0; run < LaunchRuns; ++run) {
        QTemporaryDir home;
        QProcess p;
        p.setProcessEnvironment(freshHome(home));
        p.setStandardInputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        QElapsedTimer clock;
        clock.start();
        p.start(sonde, {u"--no-saved-workspace"_s, u"--tab"_s, u"1"_s, u"--exit-when-ready"_s});
        QByteArray line;
        spinUntil(
            [&] {
                line += p.readAllStandardOutput();
                return line.contains('\n') || p.state() == QProcess::NotRunning;
            },
            SetupTimeoutMs);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        // "ready MS ms: N tools of SERVER", MS from main()'s first line.
        const QList<QByteArray> words = line.trimmed().split(' ');
        if (words.size() < 2 || words[0] != "ready")
            fail(2, u"sonde --exit-when-ready printed \"%1\" (exit code %2)"_s
                        .arg(QString::fromUtf8(line.trimmed()))
                        .arg(p.exitCode()));
        wall.push_back(ms);
        inside.push_back(words[1].toDouble());
        if (run == 0)
            out(u"  sonde said: "_s + QString::fromUtf8(line.trimmed()));
        if (!p.waitForFinished(SetupTimeoutMs))
            stop(p);
    }
    out(u"  process start to tool list shown: median %1 ms (min %2, max %3)"_s
            .arg(percentile(wall, 50), 0, 'f', 0)
            .arg(*std::min_element(wall.begin(), wall.end()), 0, 'f', 0)
            .arg(maxOf(wall), 0, 'f', 0));
    out(u"  of which inside main(): median %1 ms"_s.arg(percentile(inside, 50), 0, 'f', 0));
    out(u"  baseline: the web Inspector, as issue 11 measured it: %1 ms"_s.arg(WebInspectorLaunchMs,
                                                                               0, 'f', 0));
    out(u"  goal: under 0.5 s: "_s + verdict(percentile(wall, 50) < LaunchGoalMs));
    out(QString());
}

// One switch as the user makes it: select the server in the list, let the window do what
// that queues, and paint. Returns the milliseconds, or -1 when the tool list then does not
// show `rows` tools (the switch did not happen, or showed the wrong server's list).
double switchTo(Sonde::MainWindow &window, const QString &server, int rows)
{
    QElapsedTimer t;
    t.start();
    window.selectServer(server);
    QCoreApplication::processEvents();
    window.repaint();
    const double ms = double(t.nsecsElapsed()) / 1e6;
    const auto *list = window.toolsPanel()->findChild<QAbstractItemView *>(u"toolList"_s);
    return list && list->isVisible() && list->model() && list->model()->rowCount() == rows ? ms
                                                                                           : -1;
}

struct SwitchFigures
{
    std::vector<double> ms;
    bool allShown = true;
};

SwitchFigures switchBetween(Sonde::MainWindow &window, const QString &a, int rowsA,
                            const QString &b, int rowsB)
{
    SwitchFigures f;
    for (int i = 0; i < SwitchRounds; ++i) {
        const bool toA = i % 2 == 1;
        const double ms = switchTo(window, toA ? a : b, toA ? rowsA : rowsB);
        f.allShown = f.allShown && ms >= 0;
        f.ms.push_back(std::max(ms, 0.0));
        spinFor(20); // what follows a switch (a tooltip, a timer) is not the next one's cost
    }
    return f;
}

// Servers with a thousand tools each (the demo server's --tools), against the same switch
// between two servers of the demo's own size, measured in this run.
void measureSwitching(Sonde::MainWindow &window, const QString &demo)
{
    const int base = int(window.viewStore()->tools(ServerName).size());
    struct Big
    {
        QString name;
        int generated;
    };
    const Big servers[] = {
        {u"small-b"_s, 0}, {u"big-a"_s, GeneratedTools}, {u"big-b"_s, GeneratedTools - 1}};
    for (const Big &big : servers) {
        Sonde::ServerConfig config;
        config.name = big.name;
        config.program = demo;
        if (big.generated > 0)
            config.arguments = {u"--tools"_s, QString::number(big.generated)};
        window.addServer(config);
    }
    const bool listed = spinUntil(
        [&] {
            for (const Big &big : servers) {
                if (window.viewStore()->tools(big.name).size() != base + big.generated)
                    return false;
            }
            return true;
        },
        SetupTimeoutMs);
    if (!listed)
        fail(2, u"the 1,000-tool demo servers did not list their tools within %1 ms"_s.arg(
                    SetupTimeoutMs));
    window.tabs()->setCurrentIndex(window.tabs()->indexOf(window.toolsPanel()));
    spinFor(IdleSettleMs);
    // Small first: whatever warms up on a first switch is paid by the baseline.
    const SwitchFigures small = switchBetween(window, ServerName, base, u"small-b"_s, base);
    const SwitchFigures large = switchBetween(window, u"big-a"_s, base + GeneratedTools, u"big-b"_s,
                                              base + GeneratedTools - 1);
    out(u"Switching servers in the window (select in the list, handle what it queues, repaint;"
        " %1 switches)"_s.arg(SwitchRounds));
    auto line = [](const QString &what, const SwitchFigures &f) {
        out(u"  %1 median %2 ms, max %3 ms%4"_s.arg(what, -44)
                .arg(percentile(f.ms, 50), 6, 'f', 1)
                .arg(maxOf(f.ms), 6, 'f', 1)
                .arg(f.allShown ? QString() : u" (a switch did NOT show the right list)"_s));
    };
    line(u"%1 tools each (%2 generated + the demo's)"_s.arg(base + GeneratedTools)
             .arg(GeneratedTools),
         large);
    line(u"baseline: %1 tools each (the demo's own)"_s.arg(base), small);
    out(u"  goal: switching between servers of 1,000 tools under 50 ms: "_s +
        verdict(large.allShown && maxOf(large.ms) < SwitchGoalMs));
    out(QString());
}

struct FloodFigures
{
    double stallMs = 0, p99Ms = 0, afterRss = 0;
    int held = 0;
    bool complete = false; // every notification is in the history
};

// One flood with the Transcript tab showing: the GUI thread's stalls while it lasts, the
// notifications counted in the store and then in the history, the memory after it.
FloodFigures flood(Sonde::CoreHost &host, Sonde::MainWindow &window,
                   Sonde::HistoryRecorder &recorder, const QString &historyPath, const Options &o,
                   const QString &what)
{
    Sonde::TranscriptStore *store = window.transcriptStore();
    const qint64 expected = qRound64(double(o.rate) * o.seconds);
    const qint64 fromMs = QDateTime::currentMSecsSinceEpoch();
    FloodCounter counter(store, expected);
    StallProbe probe;
    Sonde::CallOutcome outcome;
    bool finished = false;
    quint64 ticket = 0;
    const QMetaObject::Connection answered = QObject::connect(
        &host, &Sonde::CoreHost::callFinished, &host, [&](const Sonde::CallOutcome &r) {
            if (r.ticket == ticket) {
                outcome = r;
                finished = true;
            }
        });
    // Log notifications do not extend a request's timeout, so the call's own covers the flood.
    const int callTimeoutMs = int(o.seconds * 1000) + 60'000;
    QElapsedTimer floodClock;
    probe.start();
    floodClock.start();
    ticket =
        host.call(ServerName, u"tools/call"_s,
                  {{"name"_L1, "flood"_L1},
                   {"arguments"_L1, QJsonObject{{"rate"_L1, o.rate}, {"seconds"_L1, o.seconds}}}},
                  callTimeoutMs);
    spinUntil([&] { return finished; }, callTimeoutMs + 10'000);
    const qint64 answerMs = floodClock.elapsed();
    // The engine flushes the transcript before it reports the answer, so everything should be
    // there; the wait only shows a loss as a loss rather than as lateness.
    spinUntil([&] { return counter.received() >= expected; }, 2'000);
    probe.stop();
    const qint64 drainedMs = floodClock.elapsed();
    const double peakRss = selfMiB("VmHWM");
    const double afterRss = selfMiB("VmRSS");

    QObject::disconnect(answered);
    out(u"Flood with the Transcript tab showing, %1 (probe: a %2 ms timer on the GUI thread, %3 "
        u"ticks)"_s.arg(what)
            .arg(StallProbe::IntervalMs)
            .arg(probe.gapsMs().size()));
    if (!finished)
        out(u"  flood call: no answer within %1 ms"_s.arg(callTimeoutMs + 10'000));
    else if (!outcome.ok())
        out(u"  flood call failed after %1 ms: %2"_s.arg(answerMs).arg(outcome.error.message()));
    else
        out(u"  flood call answered after %1 ms: \"%2\""_s.arg(answerMs).arg(
            outcome.result.toObject()
                .value("content"_L1)
                .toArray()
                .at(0)
                .toObject()
                .value("text"_L1)
                .toString()));
    out(u"  probe ran %1 ms (from the call to the last notification counted)"_s.arg(drainedMs));
    const double stall = probe.longestStallMs();
    out(u"  longest stall: %1 ms (largest gap minus the %2 ms interval); p99 gap %3 ms, p50 gap %4 ms"_s
            .arg(stall, 0, 'f', 1)
            .arg(StallProbe::IntervalMs)
            .arg(percentile(probe.gapsMs(), 99), 0, 'f', 1)
            .arg(percentile(probe.gapsMs(), 50), 0, 'f', 1));
    out(u"  goal: longest stall under 50 ms: "_s + verdict(stall < StallGoalMs));
    out(u"  notifications seen/expected: %1/%2 (distinct indices %3; still held by the store, capacity %4: %5)"_s
            .arg(counter.received())
            .arg(expected)
            .arg(counter.distinct())
            .arg(store->capacity())
            .arg(counter.retained()));
    // Everything queued to the writer so far is committed at flushed(); then the database is
    // counted, through a connection of its own.
    QElapsedTimer committed;
    committed.start();
    bool flushed = false;
    const QMetaObject::Connection caughtUp = QObject::connect(
        &recorder, &Sonde::HistoryRecorder::flushed, &host, [&] { flushed = true; });
    recorder.flush();
    if (!spinUntil([&] { return flushed; }, SetupTimeoutMs))
        out(u"  (the recorder did not catch up within %1 ms)"_s.arg(SetupTimeoutMs));
    QObject::disconnect(caughtUp);
    const qint64 writerMs = committed.elapsed();
    const auto [historyRows, historyDistinct] = floodInHistory(historyPath, expected, fromMs);
    out(u"  in the history: %1 rows, distinct indices %2 (the writer finished %3 ms after the "
        u"last notification; %4 events recorded)"_s.arg(historyRows)
            .arg(historyDistinct)
            .arg(writerMs)
            .arg(recorder.eventsRecorded()));
    const bool complete =
        historyDistinct == expected && historyRows == expected && recorder.firstError().isEmpty();
    out(u"  goal: nothing missing (counted in the history): "_s + verdict(complete));
    out(u"  VmRSS after the flood: %1; peak (VmHWM): %2 (the transcript store holds %3 events)"_s
            .arg(mib(afterRss), mib(peakRss))
            .arg(store->size()));
    out(QString());
    FloodFigures f;
    f.stallMs = stall;
    f.p99Ms = percentile(probe.gapsMs(), 99);
    f.afterRss = afterRss;
    f.held = store->size();
    f.complete = complete;
    return f;
}

Options parseOptions(const QStringList &args)
{
    Options o;
    OptionReader r(args);
    r.read(
        u"usage: sonde-bench-gui [--rate N] [--seconds S] | --history-window FILE SERVER\n"
        "  Opens Sonde's window, connects the demo server over stdio, shows the Transcript tab "
        "and\n"
        "  calls the demo server's flood tool (N notifications/message per second for S seconds;\n"
        "  defaults 10000 and 10), twice: the store bounded to the recording's tail, then at its "
        "full\n"
        "  bounds. Reports the GUI thread's longest stall, whether every notification reached "
        "the\n"
        "  history, the memory after each flood, and idle memory (this process, then the real "
        "sonde binary).\n"
        "  --history-window: only the History tab over FILE, SERVER's newest session: the first "
        "screen,\n"
        "  20 jumps of its scroll bar and the memory, as one line (sonde-bench-history runs it).\n"
        "  Needs no display: run it with QT_QPA_PLATFORM=offscreen."_s,
        [&](const QString &a) {
            bool ok = false;
            if (a == "--rate"_L1) {
                o.rate = r.value().toInt(&ok);
                if (!ok || o.rate < 1 || o.rate > 100'000)
                    fail(
                        2,
                        u"--rate wants notifications per second, 1 to 100000 (the demo server's cap)"_s);
            } else if (a == "--history-window"_L1) {
                o.historyFile = r.value();
                o.historyServer = r.value();
            } else if (a == "--seconds"_L1) {
                o.seconds = r.value().toDouble(&ok);
                if (!ok || o.seconds <= 0 || o.seconds > 60)
                    fail(
                        2,
                        u"--seconds wants a duration above 0 and at most 60 (the demo server's cap)"_s);
            } else {
                return false;
            }
            return true;
        });
    return o;
}

} // namespace

// The History tab as the window has it (HistoryPanel: its sessions list, its events table
// and JSON view), over a history file, shown offscreen: the time from its making to the first
// screen of the newest session's events painted, the longest wait of the GUI thread for it,
// then the table scrolled from top to bottom in 20 jumps of its scroll bar, each painted, and
// the process's memory. One line of key=value figures for sonde-bench-history, then words.
int historyWindow(const Options &o)
{
    const double rssBefore = selfMiB("VmRSS");
    QElapsedTimer total;
    total.start();
    Sonde::StoreHistoryCatalog catalog;
    QString error;
    if (!catalog.open(o.historyFile, &error))
        fail(1, error);
    Sonde::HistoryPanel panel(&catalog);
    panel.resize(1200, 800);
    panel.setServer(o.historyServer);
    panel.show();
    auto *table = panel.findChild<QTableView *>();
    if (!table)
        fail(1, u"the History tab has no events table"_s);
    // The GUI thread's longest stall while the first screen is read (StallProbe), polled
    // every millisecond for the rows, so the first screen's time is not a poll's late tick.
    StallProbe probe;
    probe.start();
    {
        QEventLoop loop;
        QTimer poll;
        poll.setTimerType(Qt::PreciseTimer);
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (!panel.isReading() && panel.eventModel()->rowCount() > 0)
                loop.quit();
        });
        QTimer::singleShot(60'000, &loop, &QEventLoop::quit);
        poll.start(1);
        loop.exec();
    }
    probe.stop();
    table->viewport()->repaint(); // the first screen, painted
    const double firstScreenMs = double(total.nsecsElapsed()) / 1e6;
    const int rows = panel.eventModel()->rowCount();
    if (rows == 0)
        fail(1, u"the History tab showed no events of %1 within 60 s"_s.arg(o.historyServer));
    QScrollBar *bar = table->verticalScrollBar();
    std::vector<double> jumpMs;
    constexpr int Jumps = 20;
    for (int i = 1; i <= Jumps; ++i) {
        QElapsedTimer t;
        t.start();
        bar->setValue(bar->maximum() * i / Jumps);
        table->viewport()->repaint();
        QCoreApplication::processEvents();
        jumpMs.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    const double rss = selfMiB("VmRSS");
    std::printf("history-window first_screen_ms=%.1f longest_stall_ms=%.1f jump_max_ms=%.1f "
                "jump_p50_ms=%.1f rows=%d rss_mib=%.1f rss_before_mib=%.1f\n",
                firstScreenMs, probe.longestStallMs(), maxOf(jumpMs), percentile(jumpMs, 50), rows,
                rss, rssBefore);
    std::fflush(stdout);
    return 0;
}

// A 20 MiB answer in the window (issue 34): the demo server's big-answer called from the Tools
// tab as a user calls it, with a 5 ms timer on the GUI thread throughout. How long until the
// answer is on screen (the call's answer handled and a paint), the longest stall, and the
// memory: before, at its most while the answer came and was shown, after the user moved to
// another tool and another server and back (the window keeps each tool's last answer), after
// Close answer, and after the transcript (which keeps the frame) is cleared too.
void measureBigAnswer(Sonde::MainWindow &window, Sonde::CoreHost &host)
{
    constexpr qint64 Bytes = 20 * 1024 * 1024;
    constexpr double AnswerMiB = double(Bytes) / 1024 / 1024;
    constexpr double SlackMiB = 10; // what the allocator and the views' first screens keep
    out(u"A 20 MiB answer in the window: the demo server's big-answer from the Tools tab"_s);
    window.selectServer(ServerName);
    window.tabs()->setCurrentWidget(window.toolsPanel());
    Sonde::ToolsPanel *tools = window.toolsPanel();
    if (!tools->selectTool(u"big-answer"_s))
        fail(2, u"the demo server lists no big-answer"_s);
    tools->form()->setValue(QJsonObject{{"bytes"_L1, Bytes}});
    spinFor(200);
    const double before = selfMiB("VmRSS");
    double most = before;
    QTimer sample;
    QObject::connect(&sample, &QTimer::timeout, &window,
                     [&most] { most = std::max(most, selfMiB("VmRSS")); });
    sample.start(20);
    StallProbe probe;
    QElapsedTimer clock;
    double answeredMs = -1;
    double shownMs = -1;
    const auto answered = QObject::connect(&host, &Sonde::CoreHost::callFinished, &window,
                                           [&](const Sonde::CallOutcome &c) {
                                               if (c.method != "tools/call"_L1 || answeredMs >= 0)
                                                   return;
                                               answeredMs = double(clock.nsecsElapsed()) / 1e6;
                                               // Queued behind the window's own handling of the
                                               // answer: then a paint.
                                               QTimer::singleShot(0, &window, [&] {
                                                   window.repaint();
                                                   shownMs = double(clock.nsecsElapsed()) / 1e6;
                                               });
                                           });
    probe.start();
    clock.start();
    tools->requestCall();
    if (!spinUntil([&] { return shownMs >= 0; }, SetupTimeoutMs))
        fail(2, u"the 20 MiB answer was not shown within %1 ms"_s.arg(SetupTimeoutMs));
    spinFor(1000);
    probe.stop();
    QObject::disconnect(answered);
    const double shown = selfMiB("VmRSS");
    if (!tools->resultText().startsWith(u"xxxx"_s))
        fail(1, u"the 20 MiB answer's text is not in the Text tab"_s);
    tools->selectTool(u"echo"_s);
    window.selectServer(u"small-b"_s);
    spinFor(300);
    window.selectServer(ServerName);
    window.tabs()->setCurrentWidget(window.toolsPanel());
    // Back to the tool: its kept answer shown again.
    QElapsedTimer again;
    again.start();
    tools->selectTool(u"big-answer"_s);
    window.repaint();
    const double againMs = double(again.nsecsElapsed()) / 1e6;
    spinFor(500);
    const double switched = selfMiB("VmRSS");
    sample.stop();
    auto *close = tools->findChild<QPushButton *>(u"closeAnswer"_s);
    if (!close || !close->isEnabled())
        fail(1, u"the Tools tab has no Close answer for the 20 MiB answer"_s);
    close->click();
    spinFor(500);
    const double closed = selfMiB("VmRSS");
    window.transcriptStore()->clear(); // the Transcript tab's Clear
    spinFor(500);
    const double cleared = selfMiB("VmRSS");
    out(u"  the answer arrived after %1 ms, on screen after %2 ms (its handling and a paint)"_s
            .arg(answeredMs, 0, 'f', 1)
            .arg(shownMs, 0, 'f', 1));
    out(u"  longest GUI stall from the call to a second after: %1 ms"_s.arg(probe.longestStallMs(),
                                                                            0, 'f', 1));
    out(u"  goal: longest stall under 50 ms: "_s + verdict(probe.longestStallMs() < StallGoalMs));
    out(u"  shown again after another tool and another server: %1 ms"_s.arg(againMs, 0, 'f', 1));
    out(u"  VmRSS: %1 before; %2 at most while it came and was shown; %3 a second after; %4 after "
        u"another tool and server and back (the window keeps each tool's last answer)"_s.arg(
            mib(before), mib(most), mib(shown), mib(switched)));
    out(u"  VmRSS after Close answer: %1 (the transcript still holds the %2 frame); after the "
        u"transcript's Clear too: %3"_s.arg(mib(closed), mib(AnswerMiB), mib(cleared)));
    out(u"  goal: Close answer gives its memory back (at most before + the transcript's frame + "
        u"%1): "_s.arg(mib(SlackMiB)) +
        verdict(closed <= before + AnswerMiB + SlackMiB));
    out(u"  goal: nothing of it held once the transcript is cleared (at most before + %1): "_s.arg(
            mib(SlackMiB)) +
        verdict(cleared <= before + SlackMiB));
    out(QString());
}

// MCP Apps in the window (issue 33): the demo server's counter-app called from the Tools tab
// as a user calls it, timed from the tool's answer arriving to the App painted after it got
// that answer (its resource read, the page loaded, ui/initialize, the result posted, two
// animation frames). The first App of the run loads QtWebEngine and starts Chromium's
// processes; each later one replaces the last in the App tab. Memory: this process, and
// Chromium's child processes apart.
void measureApps(Sonde::MainWindow &window, Sonde::CoreHost &host)
{
    out(u"MCP Apps: the demo server's counter-app, tool result -> App painted (the App tab "
        u"showing; %1 warm Apps after the first)"_s.arg(WarmApps));
    const QString self = u"/proc/self"_s;
    auto childrenMiB = [&self] {
        bool known = false;
        double sum = 0;
        for (const QString &kid : childPids(self, &known))
            sum += std::max(0.0, statusMiB(u"/proc/%1/status"_s.arg(kid), "VmRSS"));
        return sum;
    };
    const bool mappedBefore = webEngineMapped(self);
    const double before = selfMiB("VmRSS");
    const double childrenBefore = childrenMiB();
    window.selectServer(ServerName);
    window.tabs()->setCurrentWidget(window.toolsPanel());
    Sonde::ToolsPanel *tools = window.toolsPanel();
    if (!tools->selectTool(u"counter-app"_s))
        fail(2, u"the demo server lists no counter-app"_s);
    auto once = [&] {
        QElapsedTimer clock;
        double ms = -1;
        const auto answered = QObject::connect(
            &host, &Sonde::CoreHost::callFinished, &window, [&](const Sonde::CallOutcome &c) {
                if (c.method == "tools/call"_L1 && !clock.isValid())
                    clock.start();
            });
        const auto painted =
            QObject::connect(tools->appPane(), &Sonde::AppPane::appPainted, &window,
                             [&] { ms = double(clock.nsecsElapsed()) / 1e6; });
        tools->requestCall();
        const bool done = spinUntil([&] { return ms >= 0; }, SetupTimeoutMs);
        QObject::disconnect(answered);
        QObject::disconnect(painted);
        if (!done)
            fail(2, u"the counter App was not painted within %1 ms: %2"_s.arg(SetupTimeoutMs)
                        .arg(tools->appPane()->logText().right(400)));
        return ms;
    };
    const double first = once();
    spinFor(IdleSettleMs);
    const double afterFirst = selfMiB("VmRSS");
    const double childrenFirst = childrenMiB();
    std::vector<double> warm;
    for (int i = 0; i < WarmApps; ++i)
        warm.push_back(once());
    spinFor(IdleSettleMs);
    const double afterWarm = selfMiB("VmRSS");
    const double childrenWarm = childrenMiB();
    std::sort(warm.begin(), warm.end());
    const double median = warm[warm.size() / 2];
    out(u"  QtWebEngine mapped before the first App: %1"_s.arg(mappedBefore ? u"yes"_s : u"no"_s));
    out(u"  first App of the run (loads QtWebEngine, starts Chromium): %1 ms"_s.arg(first, 0, 'f',
                                                                                    1));
    out(u"  warm App: median %1 ms, fastest %2 ms, slowest %3 ms"_s.arg(median, 0, 'f', 1)
            .arg(warm.front(), 0, 'f', 1)
            .arg(warm.back(), 0, 'f', 1));
    out(u"  VmRSS of this process: %1 before, %2 after the first App (+%3), %4 after %5 more "
        u"(+%6 each)"_s.arg(mib(before), mib(afterFirst), mib(afterFirst - before), mib(afterWarm))
            .arg(WarmApps)
            .arg(mib((afterWarm - afterFirst) / WarmApps)));
    out(u"  Chromium's child processes (VmRSS, summed; shared pages counted in each): %1 "
        u"before, %2 after the first App, %3 after %4 more"_s
            .arg(mib(childrenBefore), mib(childrenFirst), mib(childrenWarm))
            .arg(WarmApps));
    out(u"  goal: a warm App painted under %1 ms: %2"_s.arg(WarmAppGoalMs)
            .arg(verdict(median < WarmAppGoalMs)));
    out(QString());
}

int runBenchmark(const Options &o)
{
    const QString demo = demoServerPath();
    const QString sonde = QDir(QCoreApplication::applicationDirPath()).filePath(u"sonde"_s);
    for (const QString &program : {demo, sonde})
        requireBuilt(program, u"sonde and sonde-demo-server targets"_s);
    const qint64 expected = qRound64(double(o.rate) * o.seconds);

    out(u"platform:    "_s + QGuiApplication::platformName());
    out(u"demo server: "_s + demo);
    out(u"flood:       %1 notifications/s for %2 s = %3 notifications/message"_s.arg(o.rate)
            .arg(o.seconds)
            .arg(expected));
    out(QString());

    // The real binary first, while this process is still small and the machine quiet.
    measureLaunch(sonde);
    measureSonde(sonde, demo);

    Sonde::CoreHost host;
    // As the window's program: servers hear that Apps are rendered.
    host.setClientCapabilities(
        Sonde::McpApps::withExtension(Sonde::CoreHost::defaultClientCapabilities()));
    // The window records into a history, as `sonde` does by default, and its Transcript tab
    // pages from it; the no-loss check counts in the database.
    QTemporaryDir historyDir;
    const QString historyPath = historyDir.filePath(u"history.sqlite"_s);
    Sonde::HistoryRecorder recorder;
    recorder.start(historyPath, u"window"_s);
    QObject::connect(&host, &Sonde::CoreHost::transcriptBatch, &recorder,
                     &Sonde::HistoryRecorder::record);
    Sonde::MainWindow window(host);
    auto reader = std::make_shared<Sonde::HistoryStore>();
    {
        QString why;
        if (!spinUntil([&] { return recorder.runId() != 0; }, SetupTimeoutMs) ||
            !reader->open(historyPath, &why))
            fail(2, u"the history did not open: "_s + why + recorder.firstError());
    }
    window.showRecording(&recorder, reader);
    window.show();
    Sonde::ServerConfig config;
    config.name = ServerName;
    config.program = demo;
    // Legacy: the demo server's flood logs regardless of a level there; in the modern era it
    // logs only for a request whose _meta asked for one, and the flood call asks for none.
    config.era = Sonde::ServerConfig::Era::Initialize;
    window.addServer(config);

    auto snapshotState = [&] {
        const int row = window.serverStore()->indexOf(ServerName);
        return row < 0 ? Sonde::SessionSnapshot::State{}
                       : window.serverStore()->snapshot(row).state;
    };
    // The window fetches the tool list itself once the session is ready; its last page (the
    // one without nextCursor) in the transcript means the window is done connecting.
    Sonde::TranscriptStore *store = window.transcriptStore();
    auto toolListDone = [&] {
        for (int row = store->size() - 1; row >= 0; --row) {
            const Sonde::TranscriptStore::Entry &e = store->entry(row);
            if (e.isResponse && e.pairedRow >= 0 &&
                store->entry(e.pairedRow).method == "tools/list"_L1 &&
                !store->event(row).raw.contains("\"nextCursor\""))
                return true;
        }
        return false;
    };
    QElapsedTimer connectClock;
    connectClock.start();
    const bool ready = spinUntil(
        [&] {
            const auto state = snapshotState();
            return state == Sonde::SessionSnapshot::State::Failed ||
                   (state == Sonde::SessionSnapshot::State::Ready && toolListDone());
        },
        SetupTimeoutMs);
    if (!ready || snapshotState() != Sonde::SessionSnapshot::State::Ready) {
        const int row = window.serverStore()->indexOf(ServerName);
        fail(2,
             u"the demo server session did not become ready with its tool list within %1 ms: %2"_s
                 .arg(SetupTimeoutMs)
                 .arg(row < 0 ? u"no such server"_s
                              : window.serverStore()->snapshot(row).lastError.message()));
    }
    const qint64 connectMs = connectClock.elapsed();
    spinFor(IdleSettleMs);
    const double idleRss = selfMiB("VmRSS");

    out(u"In-process: MainWindow + CoreHost in this process (the GUI plus the bench harness in one"
        " process, close to sonde itself)"_s);
    out(u"  connected (session ready, tool list in the transcript) in %1 ms"_s.arg(connectMs));
    out(u"  idle VmRSS %1 s after connecting, before the flood: %2"_s.arg(IdleSettleMs / 1000)
            .arg(mib(idleRss)));
    out(QString());

    measureSwitching(window, demo);
    window.selectServer(ServerName);
    measureBigAnswer(window, host);

    // The worst case: the transcript table is on screen and repaints as rows arrive.
    window.tabs()->setCurrentIndex(3);
    spinFor(200);

    // First with the store bounded to the tail, as the window records; then the same flood
    // with the store's full bounds, as the window was before (and is without a history). The
    // bounded one first: memory a process once held is not all given back, so the other
    // order would charge the first flood's store to the second.
    const FloodFigures bounded =
        flood(host, window, recorder, historyPath, o, u"the store bounded to the tail"_s);
    store->clear();
    store->setCapacity(Sonde::TranscriptStore::DefaultCapacity,
                       Sonde::TranscriptStore::DefaultCapacityBytes);
    const FloodFigures full =
        flood(host, window, recorder, historyPath, o, u"the store at its full bounds"_s);
    out(u"Memory after the flood, the Transcript tab paging from the history in both (VmRSS; "
        u"idle before the first flood: %1)"_s.arg(mib(idleRss)));
    out(u"  store bounded to %1 events / %2 (recording, now): %3, %4 events held"_s
            .arg(Sonde::MainWindow::RecordingTailEvents)
            .arg(mib(double(Sonde::MainWindow::RecordingTailBytes) / 1024 / 1024))
            .arg(mib(bounded.afterRss))
            .arg(bounded.held));
    out(u"  store at its full bounds, %1 events / %2 (before): %3, %4 events held"_s
            .arg(Sonde::TranscriptStore::DefaultCapacity)
            .arg(mib(double(Sonde::TranscriptStore::DefaultCapacityBytes) / 1024 / 1024))
            .arg(mib(full.afterRss))
            .arg(full.held));
    out(u"  longest stall %1 ms vs %2 ms; p99 gap %3 ms vs %4 ms"_s.arg(bounded.stallMs, 0, 'f', 1)
            .arg(full.stallMs, 0, 'f', 1)
            .arg(bounded.p99Ms, 0, 'f', 1)
            .arg(full.p99Ms, 0, 'f', 1));
    recorder.stop();
    out(QString());
    // Last: the first App loads QtWebEngine, whose memory would count in every figure after.
    measureApps(window, host);
    // A figure is a figure, but a lost event is a bug: the run fails on it.
    const bool lost = !bounded.complete || !full.complete;
    if (lost)
        out(u"Events were lost in a flood (see \"nothing missing\" above): exit 1"_s);

    bool closed = false;
    QObject::connect(&host, &Sonde::CoreHost::shutdownFinished, &host, [&] { closed = true; });
    host.shutdown();
    if (!spinUntil([&] { return closed; }, SetupTimeoutMs))
        out(u"  (the engine did not report its shutdown within %1 ms)"_s.arg(SetupTimeoutMs));
    return lost ? 1 : 0;
}

int main(int argc, char **argv)
{
    return runGuarded("sonde-bench-gui", [&] {
        // Before QApplication, which aborts without a display: --help must work anywhere.
        QStringList args;
        for (int i = 0; i < argc; ++i)
            args << QString::fromLocal8Bit(argv[i]);
        const Options o = parseOptions(args);
        // As sonde's main: its allocator policy, and QtWebEngine (the MCP Apps section) needs
        // the shared contexts before the application.
        Sonde::MemoryPolicy::returnLargeBlocksWhenFreed();
        QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
        QApplication app(argc, argv);
        return o.historyFile.isEmpty() ? runBenchmark(o) : historyWindow(o);
    });
}

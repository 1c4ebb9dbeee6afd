// SPDX-License-Identifier: MIT
// sonde-bench-stdio: Sonde's stdio path against the least code that can talk to the same
// server, in one run, so the figures are compared on the same machine under the same load.
#include "benchsupport.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/lineframer.h"
#include "transcript/transcriptevent.h"
#include "wireframe.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QThread>

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr int WarmUpCalls = 100;
constexpr int CallBlock = 100;

struct Options
{
    bool pinned = true;
    int calls = 2000;
    int runs = 10;
    QString program;
    QStringList arguments;
};

QByteArray echoCall(int id)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
           ",\"method\":\"tools/"
           "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hi\"}}}\n";
}

// ---- raw pipe baseline ------------------------------------------------------------------

// Reads lines until the response to `id`. Every line goes through QJsonDocument because the
// engine parses every line too; a substring search would flatter the baseline.
// One line from the server: true when it is the answer to `id`.
bool takeLine(QProcess &p, const QByteArray &line, int id)
{
    const QJsonObject m = QJsonDocument::fromJson(line).object();
    const QJsonValue mid = m.value("id"_L1);
    if (m.contains("method"_L1)) {
        // server-everything asks roots/list after initialized; answering keeps it quiet.
        if (!mid.isUndefined())
            p.write(
                QJsonDocument(QJsonObject{{"jsonrpc"_L1, u"2.0"_s},
                                          {"id"_L1, mid},
                                          {"result"_L1, QJsonObject{{"roots"_L1, QJsonArray()}}}})
                    .toJson(QJsonDocument::Compact) +
                '\n');
        return false;
    }
    if (mid.toInt(-1) != id)
        return false;
    if (m.contains("error"_L1) || m.value("result"_L1).toObject().value("isError"_L1).toBool())
        fail(1, u"raw pipe: id %1 answered with an error"_s.arg(id));
    return true;
}

void readResponse(QProcess &p, int id)
{
    for (;;) {
        while (!p.canReadLine()) {
            if (!p.waitForReadyRead(IoTimeoutMs))
                fail(1, u"raw pipe: no answer to id %1 (%2)"_s.arg(id).arg(p.errorString()));
        }
        if (takeLine(p, p.readLine(), id))
            return;
    }
}

// One echo call's answer line, as the server wrote it.
QByteArray rawAnswer(QProcess &p, int id)
{
    p.write(echoCall(id));
    for (;;) {
        while (!p.canReadLine())
            if (!p.waitForReadyRead(IoTimeoutMs))
                fail(1, u"raw pipe: no answer to id %1"_s.arg(id));
        const QByteArray line = p.readLine().trimmed();
        if (QJsonDocument::fromJson(line).object().value("id"_L1).toInt(-1) == id)
            return line;
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

// The engine's own tools/call frame under each id: a baseline that sent less (no _meta with
// the progress token) would move the server's cost of the difference into Sonde's column.
QByteArray callLine(const SondeBench::WireFrame &frame, int id)
{
    return frame.isEmpty() ? echoCall(id) : frame.withId(id) + '\n';
}

void rawCalls(QProcess &p, int &id, int calls, std::vector<double> *samples,
              const SondeBench::WireFrame &frame = {})
{
    QElapsedTimer timer;
    for (int end = id + calls; id < end; ++id) {
        timer.start();
        p.write(callLine(frame, id));
        readResponse(p, id);
        const qint64 ns = timer.nsecsElapsed();
        if (samples)
            samples->push_back(double(ns) / 1000.0);
    }
}

// The floor of Sonde's design with nothing of Sonde's in it: the same pipe read through the
// event loop of a second thread (QProcess's notifier: a client of many servers cannot block on
// one), the caller posting each call there and waiting for its answer to be posted back.
class ThreadedPipe : public QObject
{
public:
    explicit ThreadedPipe(const Options &o)
    {
        moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            this,
            [this, &o] {
                m_process = new QProcess(this);
                startRaw(*m_process, o);
                connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
                    while (m_process->canReadLine())
                        if (takeLine(*m_process, m_process->readLine(), m_waiting))
                            QMetaObject::invokeMethod(
                                m_caller, [back = m_back] { *back = true; }, Qt::QueuedConnection);
                });
            },
            Qt::BlockingQueuedConnection);
    }
    ~ThreadedPipe() override
    {
        QMetaObject::invokeMethod(
            this, [this] { stopRaw(*m_process); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

    void setFrame(const SondeBench::WireFrame &frame) { m_frame = frame; }
    void calls(int &id, int n, std::vector<double> *samples)
    {
        QElapsedTimer timer;
        for (int end = id + n; id < end; ++id) {
            bool back = false;
            timer.start();
            QMetaObject::invokeMethod(this, [this, id, &back] {
                m_waiting = id;
                m_back = &back;
                m_process->write(callLine(m_frame, id));
            });
            while (!back)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            if (samples)
                samples->push_back(double(timer.nsecsElapsed()) / 1000.0);
        }
    }

private:
    QThread m_thread;
    QProcess *m_process = nullptr;
    QObject m_callerObject;
    QObject *m_caller = &m_callerObject; // lives on the caller's thread
    int m_waiting = -1;
    bool *m_back = nullptr;
    SondeBench::WireFrame m_frame;
};

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

// ---- where Sonde's share of a warm call goes ----------------------------------------------

// Each part of Sonde's own work on one warm call, measured apart on this machine (median of
// SplitRounds, in microseconds), beside the overhead over the raw pipe: what is left over is
// waiting (the wakeups of two event loops and QProcess's notifiers), not work. The frames are
// the real ones: the engine's last tools/call request and the server's answer to it.
constexpr int SplitRounds = 20000;

template <typename F> double medianUs(F &&f, int rounds = SplitRounds)
{
    std::vector<double> us;
    us.reserve(size_t(rounds));
    QElapsedTimer t;
    for (int i = 0; i < rounds; ++i) {
        t.start();
        f();
        us.push_back(double(t.nsecsElapsed()) / 1000.0);
    }
    return percentile(us, 50);
}

// One round trip between two threads' event loops, as every call makes one (the caller's to
// the engine's thread and back): carrying an outcome back as the engine does, or carrying
// nothing of Sonde's (Qt's own price for the design, the floor) with the two threads kept
// on two CPUs, and with both kept on the caller's CPU (what is left when no CPU has to wake
// another). Unpinned, the scheduler picks one of the two at random: the pinned figures are
// the two ends of that range.
enum class Hop
{
    WithOutcome,
    QtAloneTwoCpus,
    QtAloneOneCpu
};

double threadHopUs(Hop kind)
{
    QThread worker;
    QObject there;
    there.moveToThread(&worker);
    worker.start();
    cpu_set_t callerMask;
    CPU_ZERO(&callerMask);
    sched_getaffinity(0, sizeof callerMask, &callerMask);
    if (kind != Hop::WithOutcome) {
        const int mine = sched_getcpu();
        int other = mine;
        for (int c = 0; c < CPU_SETSIZE && kind == Hop::QtAloneTwoCpus; ++c)
            if (c != mine && CPU_ISSET(c, &callerMask)) {
                other = c;
                break;
            }
        cpu_set_t here, there_;
        CPU_ZERO(&here);
        CPU_ZERO(&there_);
        CPU_SET(mine, &here);
        CPU_SET(other, &there_);
        sched_setaffinity(0, sizeof here, &here); // this thread (pid 0: the calling one)
        QMetaObject::invokeMethod(
            &there, [&there_] { sched_setaffinity(0, sizeof there_, &there_); },
            Qt::BlockingQueuedConnection);
    }
    QObject here;
    std::vector<double> us;
    QElapsedTimer t;
    for (int i = 0; i < 2000; ++i) {
        bool back = false;
        t.start();
        if (kind == Hop::WithOutcome) {
            QMetaObject::invokeMethod(&there, [&here, &back] {
                Sonde::CallOutcome o;
                o.method = u"tools/call"_s;
                o.result = QJsonObject{{"content"_L1, QJsonArray{}}};
                QMetaObject::invokeMethod(
                    &here, [&back, o] { back = !o.method.isEmpty(); }, Qt::QueuedConnection);
            });
        } else {
            QMetaObject::invokeMethod(&there, [&here, &back] {
                QMetaObject::invokeMethod(
                    &here, [&back] { back = true; }, Qt::QueuedConnection);
            });
        }
        while (!back)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        us.push_back(double(t.nsecsElapsed()) / 1000.0);
    }
    worker.quit();
    worker.wait();
    sched_setaffinity(0, sizeof callerMask, &callerMask);
    return percentile(us, 50);
}

// Prints the split; returns Qt's own round trip between two threads (the floor's share).
double printSplit(const QByteArray &request, const QByteArray &answer, double overheadUs)
{
    out(u"  where Sonde's share goes (each part measured apart, median in us; frames: the "
        u"engine's %1-byte request, the server's %2-byte answer)"_s.arg(request.size())
            .arg(answer.size()));
    const QJsonObject params =
        QJsonDocument::fromJson(request).object().value("params"_L1).toObject();
    double volatile sink = 0;
    const double build = medianUs([&] {
        sink =
            sink +
            double(
                Sonde::JsonRpcMessage::request(7, u"tools/call"_s, params).toCompactJson().size());
    });
    const QByteArray line = answer + '\n';
    Sonde::LineFramer framer;
    const double frame = medianUs([&] { sink = sink + double(framer.feed(line).size()); });
    const double parse = medianUs(
        [&] { sink = sink + double(Sonde::JsonRpcMessage::parse(answer).messages.size()); });
    const double transcript = medianUs([&] {
        Sonde::TranscriptBatch batch;
        for (const QByteArray *raw : {&request, &answer}) {
            Sonde::TranscriptEvent e;
            e.server = u"bench"_s;
            e.raw = *raw;
            batch.append(std::move(e));
        }
        sink = sink + double(batch.size());
    });
    const double hop = threadHopUs(Hop::WithOutcome);
    const double qtHop = threadHopUs(Hop::QtAloneTwoCpus);
    const double qtHopOneCpu = threadHopUs(Hop::QtAloneOneCpu);
    const double sum = build + frame + parse + transcript + hop;
    auto row = [](const QString &what, double us) {
        out(u"    %1 %2"_s.arg(what, -58).arg(us, 8, 'f', 1));
    };
    row(u"the request built and serialized"_s, build);
    row(u"the answer framed (one line)"_s, frame);
    row(u"the answer parsed (JsonRpcMessage::parse)"_s, parse);
    row(u"the two frames as transcript events"_s, transcript);
    row(u"the hop to the engine's thread and back, with the outcome"_s, hop);
    row(u"  Qt alone (a queued call there and back), threads on two CPUs"_s, qtHop);
    row(u"  Qt alone, both threads on one CPU (no CPU wakes another)"_s, qtHopOneCpu);
    row(u"sum of the parts"_s, sum);
    row(u"overhead over the raw pipe (p50), for comparison"_s, overheadUs);
    row(u"left over: waiting on wakeups and notifiers, not work"_s, overheadUs - sum);
    return qtHop;
}

// ---- a large answer ------------------------------------------------------------------------

constexpr qint64 LargeAnswerBytes = 50 * 1024 * 1024;
constexpr int LargeAnswerRuns = 3;

QByteArray largeAnswerArguments()
{
    return "{\"bytes\":" + QByteArray::number(LargeAnswerBytes) + '}';
}

// The demo server's big-answer tool through a raw pipe: the answer line read whole and
// parsed once, as any client must.
double rawLargeAnswerMs()
{
    Options demo;
    demo.program = demoServerPath();
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    startRaw(p, demo);
    p.write(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big-answer","arguments":)" +
        largeAnswerArguments() + "}}\n");
    readResponse(p, 1);
    stopRaw(p);
    return double(timer.nsecsElapsed()) / 1e6;
}

void benchLargeAnswer(const QString &cli)
{
    out(u"Large answer: %1 runs of sonde-cli tools call big-answer (a %2 MiB text) against the demo server"_s
            .arg(LargeAnswerRuns)
            .arg(LargeAnswerBytes >> 20));
    const QList<QByteArray> argv{QFile::encodeName(cli),
                                 "--quiet",
                                 "--era", // the raw pipe beside it speaks 2025-11-25
                                 "initialize",
                                 "--command",
                                 QFile::encodeName(demoServerPath()),
                                 "tools",
                                 "call",
                                 "big-answer",
                                 largeAnswerArguments()};
    std::vector<double> cliMs, cliRss, rawMs;
    for (int i = 0; i < LargeAnswerRuns; ++i) {
        const CliRun r = cliOneShot(argv);
        cliMs.push_back(r.wallMs);
        cliRss.push_back(r.ownPeakMiB);
        rawMs.push_back(rawLargeAnswerMs());
    }
    const double cMed = percentile(cliMs, 50), rMed = percentile(rawMs, 50);
    const double rss = percentile(cliRss, 50);
    const double answerMiB = double(LargeAnswerBytes >> 20);
    out(u"              sonde-cli   raw pipe     sonde/raw"_s);
    out(u"  median (ms)"_s + num(cMed, 11) + num(rMed, 11) + num(cMed / rMed, 12, 2) + u'x');
    out(u"  sonde-cli peak RSS (median): %1 MiB, %2x the answer (the line as read, its parsed"
        " result, and the text printed from the line itself; before issue 34: 314 MiB)"_s
            .arg(rss, 0, 'f', 1)
            .arg(rss / answerMiB, 0, 'f', 1));
    out(u"  goal: peak RSS at most twice the answer plus 20 MiB (%1 MiB): "_s.arg(2 * answerMiB +
                                                                                  20) +
        verdict(rss <= 2 * answerMiB + 20));
    out(QString());

    // Over the frame limit: the demo server builds and writes a 70 MB line; the CLI must drop it
    // as it reads, never holding more than the limit.
    constexpr qint64 OverLimitBytes = 70'000'000;
    constexpr double LimitMiB = 64;
    out(u"Over the frame limit: %1 runs of sonde-cli tools call big-answer (a %2 MB text, over the"
        " %3 MiB limit)"_s.arg(LargeAnswerRuns)
            .arg(OverLimitBytes / 1'000'000)
            .arg(LimitMiB));
    QList<QByteArray> over = argv;
    over.last() = "{\"bytes\":" + QByteArray::number(OverLimitBytes) + '}';
    const CliRun refused = cliMedians(over, LargeAnswerRuns, 1); // exit 1, the limit named
    const double overPeak = refused.ownPeakMiB;
    out(u"  refused after %1 ms (median); sonde-cli peak RSS (median): %2 MiB (before issue 34:"
        " 142 MiB)"_s.arg(refused.wallMs, 0, 'f', 1)
            .arg(overPeak, 0, 'f', 1));
    out(u"  goal: peak RSS at most the limit plus 20 MiB (%1 MiB): "_s.arg(LimitMiB + 20) +
        verdict(overPeak <= LimitMiB + 20));
    out(QString());
}

// ---- notifications across the threads ------------------------------------------------------

// The demo server's flood: notifications/message as fast as a server sends a log burst.
constexpr int FloodRate = 100'000;
constexpr double FloodSeconds = 2.0;
constexpr int FloodTotal = int(FloodRate * FloodSeconds);

// CPU time a thread of this process has used so far (ms): the calling thread's own clock, or
// another's from Linux's schedstat (ns), found by its id.
double ownCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}
double threadCpuMs(pid_t tid)
{
    QFile stat(u"/proc/self/task/%1/schedstat"_s.arg(tid));
    if (!stat.open(QIODevice::ReadOnly))
        fail(1, u"no thread %1 in this process"_s.arg(tid));
    return stat.readAll().split(' ').value(0).toDouble() / 1e6;
}
// The newest thread Qt named so (from its QThread's objectName): QThread::wait() returns
// before the thread has quite gone, so an older one of the same name may still be listed.
pid_t newestThreadNamed(const QByteArray &name)
{
    const QDir tasks(u"/proc/self/task"_s);
    pid_t newest = 0;
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + u"/comm"_s));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == name)
            newest = std::max(newest, pid_t(tid.toInt()));
    }
    if (!newest)
        fail(1, u"no thread named "_s + QString::fromLatin1(name));
    return newest;
}

struct Crossing
{
    qint64 notifications = 0;
    qint64 crossings = 0; // queued events that reached the receiving thread
    double receiverCpuMs = 0;
    double senderCpuMs = 0;
    Sonde::ServerNotification sample;
};

// Sonde: the flood through CoreHost, the caller's thread counting what arrives.
Crossing sondeFlood()
{
    EngineSession engine(stdioConfig(demoServerPath(), {}));
    Crossing c;
    bool answered = false;
    quint64 ticket = 0;
    QObject::connect(&engine.host(), &Sonde::CoreHost::notificationsReceived, &engine.host(),
                     [&](const Sonde::ServerNotificationBatch &batch) {
                         ++c.crossings;
                         // The flood's own; a progress notification each second rides along.
                         for (const Sonde::ServerNotification &n : batch)
                             if (n.method == "notifications/message"_L1) {
                                 ++c.notifications;
                                 if (c.sample.method.isEmpty())
                                     c.sample = n;
                             }
                     });
    QObject::connect(&engine.host(), &Sonde::CoreHost::callFinished, &engine.host(),
                     [&](const Sonde::CallOutcome &o) {
                         if (o.ticket != ticket)
                             return;
                         if (!o.ok())
                             return engine.stop(u"flood failed: "_s + o.error.message());
                         answered = true;
                         engine.quit();
                     });
    engine.start();
    const pid_t engineThread = newestThreadNamed("sonde-engine");
    const double receiver = ownCpuMs(), sender = threadCpuMs(engineThread);
    engine.spin(
        [&] {
            ticket =
                engine.host().call(engine.name(), u"tools/call"_s,
                                   {{"name"_L1, "flood"_L1},
                                    {"arguments"_L1, QJsonObject{{"rate"_L1, FloodRate},
                                                                 {"seconds"_L1, FloodSeconds}}}},
                                   60'000);
        },
        u"the flood"_s);
    c.receiverCpuMs = ownCpuMs() - receiver;
    c.senderCpuMs = threadCpuMs(engineThread) - sender;
    engine.shutdown();
    if (!answered)
        fail(1, u"the flood did not answer"_s);
    return c;
}

// Qt alone: the same notifications posted from a worker thread to this one, one queued event
// for every `perCrossing` of them, and nothing else: the price of crossing, by batch size.
Crossing qtAloneFlood(const Sonde::ServerNotification &sample, int perCrossing)
{
    QThread worker;
    QObject there, here;
    there.moveToThread(&worker);
    worker.start();
    Crossing c;
    QEventLoop loop;
    pid_t senderThread = 0;
    QMetaObject::invokeMethod(
        &there, [&senderThread] { senderThread = gettid(); }, Qt::BlockingQueuedConnection);
    const double receiver = ownCpuMs(), sender = threadCpuMs(senderThread);
    QMetaObject::invokeMethod(&there, [&] {
        for (int sent = 0; sent < FloodTotal; sent += perCrossing) {
            Sonde::ServerNotificationBatch batch(std::min(perCrossing, FloodTotal - sent), sample);
            QMetaObject::invokeMethod(
                &here,
                [&c, &loop, batch] {
                    ++c.crossings;
                    c.notifications += batch.size();
                    if (c.notifications == FloodTotal)
                        loop.quit();
                },
                Qt::QueuedConnection);
        }
    });
    loop.exec();
    c.receiverCpuMs = ownCpuMs() - receiver;
    QMetaObject::invokeMethod(
        &there, [] {}, Qt::BlockingQueuedConnection);
    c.senderCpuMs = threadCpuMs(senderThread) - sender;
    worker.quit();
    worker.wait();
    return c;
}

void benchNotificationFlood()
{
    out(u"Notification flood: the demo server's flood tool, %1 notifications/message a second for "
        u"%2 s, through CoreHost; beside it Qt alone posting the same notification values from "
        u"a worker thread, one queued event each (what crossed before issue 34) and in batches "
        u"of Sonde's mean size"_s.arg(FloodRate)
            .arg(FloodSeconds));
    const Crossing sonde = sondeFlood();
    if (sonde.notifications != FloodTotal)
        fail(1, u"the flood's notifications arrived %1 of %2"_s.arg(sonde.notifications)
                    .arg(FloodTotal));
    const int meanBatch = int(std::max<qint64>(1, sonde.notifications / sonde.crossings));
    const Crossing single = qtAloneFlood(sonde.sample, 1);
    const Crossing batched = qtAloneFlood(sonde.sample, meanBatch);
    out(u"                                  crossings   receiving thread   sending thread   "
        u"receiving, per notification"_s);
    const auto row = [](const QString &what, const Crossing &c) {
        out(u"  %1%2%3 ms%4 ms%5 us"_s.arg(what, -30)
                .arg(c.crossings, 11)
                .arg(c.receiverCpuMs, 16, 'f', 1)
                .arg(c.senderCpuMs, 14, 'f', 1)
                .arg(1000.0 * c.receiverCpuMs / double(std::max<qint64>(c.notifications, 1)), 25,
                     'f', 3));
    };
    row(u"Sonde, through CoreHost"_s, sonde);
    row(u"Qt alone, one event each"_s, single);
    row(u"Qt alone, %1 per event"_s.arg(meanBatch), batched);
    out(u"  Sonde's sending thread is the engine's whole work (reading the pipe, parsing every "
        u"frame, the transcript); Qt alone's only posts"_s);
    out(u"  every notification arrived, in %1 crossings (%2 per crossing on average); the "
        u"caller's thread spent %3 % of Qt alone's one-event-each CPU time"_s.arg(sonde.crossings)
            .arg(meanBatch)
            .arg(100.0 * sonde.receiverCpuMs / std::max(single.receiverCpuMs, 0.001), 0, 'f', 0));
    out(u"  goal (issue 34): notifications cross in batches, the caller's thread under Qt alone's "
        u"one-event-each time: "_s +
        verdict(sonde.crossings * 10 <= sonde.notifications &&
                sonde.receiverCpuMs < single.receiverCpuMs));
    out(QString());
}

Options parseOptions(const QStringList &args)
{
    Options o;
    OptionReader r(args);
    r.read(
        u"usage: sonde-bench-stdio [--calls N] [--runs N] [--server-command PROGRAM [--server-arg A]...]"_s,
        [&](const QString &a) {
            if (a == "--calls"_L1)
                o.calls = r.count();
            else if (a == "--runs"_L1)
                o.runs = r.count();
            else if (a == "--server-command"_L1) {
                o.program = r.value();
                o.pinned = false;
            } else if (a == "--server-arg"_L1)
                o.arguments << r.value();
            else
                return false;
            return true;
        });
    if (o.pinned && !o.arguments.isEmpty())
        fail(2, u"--server-arg needs --server-command"_s);
    if (o.pinned) {
        requireNodeModule(everythingPath());
        o.program = u"node"_s;
        o.arguments = {everythingPath(), u"stdio"_s};
    }
    return o;
}

} // namespace

int runBenchmark()
{
    const Options o = parseOptions(QCoreApplication::arguments());
    const QString cli = cliPath();

    out(u"server:    "_s + QStringList(QStringList{o.program} + o.arguments).join(u' ') +
        (o.pinned ? u"  (pinned server-everything)"_s : u"  (--server-command)"_s));
    out(u"sonde-cli: "_s + cli);
    out(QString());

    out(u"Warm latency: %1 sequential tools/call echo on one session (after %2 warm-up); every "
        u"column sends the engine's own request bytes (its _meta included) under its own ids"_s
            .arg(o.calls)
            .arg(WarmUpCalls));
    std::vector<double> eng, raw, floor;
    QByteArray requestFrame, answerFrame;
    {
        EchoBench engine(stdioConfig(o.program, o.arguments));
        QProcess pipe;
        startRaw(pipe, o);
        ThreadedPipe threaded(o);
        int id = 1, threadedId = 1;
        engine.run(WarmUpCalls, nullptr);
        // From here on every column sends the engine's bytes.
        const SondeBench::WireFrame frame =
            SondeBench::WireFrame::parse(engine.sentFrame(u"tools/call"_s));
        threaded.setFrame(frame);
        engine.stopRecording(); // the timed calls pay for no parsing of their own frames
        rawCalls(pipe, id, WarmUpCalls, nullptr, frame);
        threaded.calls(threadedId, WarmUpCalls, nullptr);
        // Alternating blocks, all sessions open throughout: background load and frequency
        // drift then land in every column alike instead of in whichever ran last.
        for (int done = 0; done < o.calls; done += CallBlock) {
            const int n = std::min(CallBlock, o.calls - done);
            engine.run(n, &eng);
            rawCalls(pipe, id, n, &raw, frame);
            threaded.calls(threadedId, n, &floor);
        }
        requestFrame = engine.sentFrame(u"tools/call"_s);
        answerFrame = rawAnswer(pipe, id++);
        stopRaw(pipe);
        engine.shutdown();
    }
    const double e50 = percentile(eng, 50), e99 = percentile(eng, 99);
    const double r50 = percentile(raw, 50), r99 = percentile(raw, 99);
    out(u"              Sonde engine    raw pipe              overhead"_s);
    out(u"  p50  (us)"_s + num(e50, 15) + num(r50, 12) + overhead(e50, r50));
    out(u"  p99  (us)"_s + num(e99, 15) + num(r99, 12) + overhead(e99, r99));
    out(u"  mean (us)"_s + num(mean(eng), 15) + num(mean(raw), 12) +
        overhead(mean(eng), mean(raw)));
    const bool warmMet = e50 <= r50 * 1.10 && e99 <= r99 * 1.10;
    out(u"  goal: client overhead within 10 % of the raw pipe (p50 and p99): "_s +
        verdict(warmMet));
    // The design's floor, measured in the same blocks: the raw pipe read on a second thread's
    // event loop, each call posted there and its answer posted back, nothing of Sonde's.
    const double f50 = percentile(floor, 50), f99 = percentile(floor, 99);
    out(u"              Sonde engine    the floor: the raw pipe on a 2nd thread's event loop"_s);
    out(u"  p50  (us)"_s + num(e50, 15) + num(f50, 12) + overhead(e50, f50));
    out(u"  p99  (us)"_s + num(e99, 15) + num(f99, 12) + overhead(e99, f99));
    out(u"  the floor is %1 us above the raw pipe at p50 (%2 at p99): two threads' event loops "
        u"and back, which an engine on its own thread pays on every call"_s
            .arg(f50 - r50, 0, 'f', 1)
            .arg(f99 - r99, 0, 'f', 1));
    // The tail is the server's: node's pauses stretch a call or two in a hundred to
    // milliseconds in every column alike, and where the 99th falls among them moves p99 by
    // hundreds of microseconds from run to run.
    const auto slowShare = [](const std::vector<double> &v) {
        return 100.0 *
               double(std::count_if(v.begin(), v.end(), [](double us) { return us > 1000; })) /
               double(std::max<size_t>(v.size(), 1));
    };
    out(u"  calls over 1 ms (the server's pauses): Sonde %1 %, raw pipe %2 %, floor %3 %"_s
            .arg(slowShare(eng), 0, 'f', 2)
            .arg(slowShare(raw), 0, 'f', 2)
            .arg(slowShare(floor), 0, 'f', 2));
    out(u"  goal (issue 34), against the floor: p50 within 40 us: "_s + verdict(e50 - f50 <= 40) +
        u"; p99 within 10 %: "_s + verdict(e99 <= f99 * 1.10));
    const double qtHop = printSplit(requestFrame, answerFrame, e50 - r50);
    // The engine runs on its own thread (docs/architecture.md), so each call crosses two
    // threads' event loops and back: what Qt alone charges for that, measured just above, is
    // a floor under the overhead that no work of Sonde's can remove.
    out(u"  floor for an engine on its own thread: the raw pipe + Qt's round trip = %1 us; "
        u"Sonde's p50 less that: %2 us"_s.arg(r50 + qtHop, 0, 'f', 1)
            .arg(e50 - r50 - qtHop, 0, 'f', 1));
    out(u"  goal (issue 34): p50 within 40 us of the raw pipe: "_s + verdict(e50 - r50 <= 40) +
        (e50 - r50 > 40 && qtHop > 40
             ? u" (below the floor: Qt's round trip alone is %1 us here)"_s.arg(qtHop, 0, 'f', 1)
             : QString()));
    out(QString());

    benchLargeAnswer(cli);
    benchNotificationFlood();

    out(u"Cold one-shot: %1 runs (after 1 warm-up) of sonde-cli tools call echo"_s.arg(o.runs));
    QList<QByteArray> argvCli{QFile::encodeName(cli), "--quiet",   "--era",
                              "initialize",           "--command", QFile::encodeName(o.program)};
    for (const QString &a : o.arguments)
        argvCli << "--arg" << a.toLocal8Bit();
    argvCli << "tools"
            << "call"
            << "echo"
            << "{\"message\":\"hi\"}";
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
    const double cMax = maxOf(cliMs), rMax = maxOf(rawMs);
    out(u"              sonde-cli   server alone   difference"_s);
    out(u"  median (ms)"_s + num(cMed, 11) + num(rMed, 15) + num(cMed - rMed, 13));
    out(u"  max    (ms)"_s + num(cMax, 11) + num(rMax, 15) + num(cMax - rMax, 13));
    const bool coldMet = cMed - rMed <= 50.0;
    out(u"  goal: a one-shot that exits within 50 ms of the server's own start-up and shutdown (median): "_s +
        verdict(coldMet));
    out(u"  sonde-cli peak RSS (median): %1 MiB (own VmHWM; wait4's ru_maxrss, which also counts"
        " the server it reaps: %2 MiB)"_s.arg(percentile(cliRss, 50), 0, 'f', 1)
            .arg(percentile(cliTreeRss, 50), 0, 'f', 1));
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    return runGuarded("sonde-bench-stdio", runBenchmark);
}

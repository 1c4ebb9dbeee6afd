// SPDX-License-Identifier: MIT
// sonde-bench-recovery: how long Sonde takes to get a read answered again after the server
// refuses its session, beside one plain initialize round trip to the same server, in one
// run, so the figures are compared on the same machine under the same load. Every
// connection stays on 127.0.0.1.
#include "benchsupport.h"
#include "rawhttpclient.h"
#include "transport/fault.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

#include <optional>
#include <vector>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr double GoalRatio = 2.0;
constexpr int ShownDeviations = 3;    // off-path runs described one by one; the rest are counted
constexpr int StreamEndWaitMs = 2000; // how long an answered SSE stream may stay open

struct Options
{
    int runs = 50;
    bool everything = true;
    bool demo = true;
};

// Every client here declares what the engine declares (roots, sampling, elicitation): a
// server may do more for a richer client (server-everything registers tools for each), and
// the baselines must pay for the same session the engine gets.
QByteArray initializeBody()
{
    return RawHttpClient::initializeBody(1, Sonde::CoreHost::defaultClientCapabilities());
}

// ---- plain HTTP on the caller's thread ---------------------------------------------------

// The baseline client, and the janitor that ends the sessions the engine walks away from.
// It runs on this thread while the engine runs on its own, as any second client would.
class Loopback
{
public:
    struct Initialize
    {
        double ms = 0;
        QByteArray sessionId;
        bool sse = false;
        bool endedAfter = false; // SSE: the stream ended by itself, after the result event
        bool leftOpen = false;   // SSE: still open StreamEndWaitMs after the result event
    };

    explicit Loopback(const QString &endpoint) : m_url(endpoint)
    {
        // Proxy variables are cleared in main(); this also rules out any other proxy setting.
        m_nam.setProxy(QNetworkProxy::NoProxy);
    }

    // One initialize, timed from the POST to the end of its answer: the whole body for JSON;
    // for SSE the end of the stream or the event carrying the "id":1 result, whichever
    // comes first (a server may keep the stream open after answering). `fresh` sends it
    // through a manager made for it, as the engine's reconnect does (a new transport, so a
    // new manager and new connections); otherwise through the long-lived one, whose
    // connection to a keep-alive server is reused.
    Initialize initialize(bool fresh = false)
    {
        const QByteArray body = initializeBody();
        QNetworkRequest r(m_url);
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        r.setRawHeader("Accept", "application/json, text/event-stream");
        Initialize result;
        QByteArray received;
        QEventLoop loop;
        QElapsedTimer timer;
        timer.start();
        // Made inside the timed part: the engine's reconnect makes its manager after the
        // expiry answer too.
        std::optional<QNetworkAccessManager> once;
        if (fresh) {
            once.emplace();
            once->setProxy(QNetworkProxy::NoProxy);
        }
        QNetworkReply *reply = (fresh ? *once : m_nam).post(r, body);
        qint64 endNs = -1;
        QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
            received += reply->readAll();
            if (endNs < 0 && sseAnswered(received)) {
                endNs = timer.nsecsElapsed();
                loop.quit();
            }
        });
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&] {
            if (endNs < 0)
                endNs = timer.nsecsElapsed();
            loop.quit();
        });
        const bool timedOut = run(loop, IoTimeoutMs);
        // Untimed: let a stream that answered before ending end by itself, so that its
        // connection stays reusable (an abort closes it) and the report can say whether the
        // server ends it.
        if (!timedOut && !reply->isFinished()) {
            result.endedAfter = !run(loop, StreamEndWaitMs) && reply->isFinished();
            result.leftOpen = !reply->isFinished();
        }
        if (reply->isOpen()) // a stream the server ended is closed for reading
            received += reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.ms = double(endNs) / 1e6;
        result.sessionId = reply->rawHeader("Mcp-Session-Id");
        result.sse = reply->header(QNetworkRequest::ContentTypeHeader)
                         .toString()
                         .startsWith("text/event-stream"_L1);
        if (!reply->isFinished())
            reply->abort(); // the answer is in; the session ends with the DELETE below
        const QString error = reply->errorString();
        delete reply; // now: it must not outlive the manager it came from
        if (timedOut)
            fail(1, u"initialize: no answer within %1 ms"_s.arg(IoTimeoutMs));
        if (status != 200 || !received.contains("\"result\"") || result.sessionId.isEmpty())
            fail(1, u"initialize: HTTP %1, session id \"%2\", %3: %4"_s.arg(status).arg(
                        QString::fromLatin1(result.sessionId), error, QString::fromUtf8(received)));
        return result;
    }

    // The least a recovery can send, with no engine: POST initialize; at its answer, POST
    // notifications/initialized (the spec's MUST) and the read at once; timed from the
    // initialize POST to the read's answer. No GET stream (optional, though Sonde opens one):
    // this is the floor any compliant client pays on this server for a new session plus one
    // request, through the same QNetworkAccessManager as the baseline. The session is
    // deleted afterwards.
    double bareRecovery(const QString &uri)
    {
        const QByteArray initBody = initializeBody();
        const QByteArray readBody =
            QJsonDocument(QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                                      {"id"_L1, 2},
                                      {"method"_L1, "resources/read"_L1},
                                      {"params"_L1, QJsonObject{{"uri"_L1, uri}}}})
                .toJson(QJsonDocument::Compact);
        QEventLoop loop;
        QElapsedTimer timer;
        qint64 endNs = -1;
        QByteArray sessionId, readReceived;
        QList<QNetworkReply *> replies;
        auto postJson = [&](const QByteArray &body) {
            QNetworkRequest r(m_url);
            r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
            r.setRawHeader("Accept", "application/json, text/event-stream");
            if (!sessionId.isEmpty()) {
                r.setRawHeader("Mcp-Session-Id", sessionId);
                r.setRawHeader("MCP-Protocol-Version", "2025-11-25");
            }
            replies << m_nam.post(r, body);
            return replies.last();
        };
        timer.start();
        QNetworkReply *init = postJson(initBody);
        QByteArray initReceived;
        bool initDone = false;
        auto afterInitialize = [&] {
            if (initDone)
                return;
            initDone = true;
            sessionId = init->rawHeader("Mcp-Session-Id");
            postJson(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
            QNetworkReply *read = postJson(readBody);
            auto done = [&, read] {
                if (read->isOpen())
                    readReceived += read->readAll();
                if (endNs < 0 && (read->isFinished() || answered(readReceived, "\"id\":2"))) {
                    endNs = timer.nsecsElapsed();
                    loop.quit();
                }
            };
            QObject::connect(read, &QNetworkReply::readyRead, &loop, done);
            QObject::connect(read, &QNetworkReply::finished, &loop, done);
        };
        QObject::connect(init, &QNetworkReply::readyRead, &loop, [&] {
            initReceived += init->readAll();
            if (answered(initReceived, "\"id\":1"))
                afterInitialize();
        });
        QObject::connect(init, &QNetworkReply::finished, &loop, afterInitialize);
        const bool timedOut = run(loop, IoTimeoutMs);
        for (QNetworkReply *r : std::as_const(replies)) {
            if (!r->isFinished())
                r->abort();
            delete r;
        }
        if (timedOut || !readReceived.contains("\"result\""))
            fail(1,
                 u"bare recovery: no read answer: "_s + QString::fromUtf8(readReceived.left(300)));
        if (deleteSession(sessionId, u"2025-11-25"_s) / 100 != 2)
            fail(1, u"bare recovery: the DELETE of its session failed"_s);
        return double(endNs) / 1e6;
    }

    // Returns the HTTP status (0: no answer).
    int deleteSession(const QByteArray &sessionId, const QString &protocolVersion = {})
    {
        QNetworkRequest r(m_url);
        r.setRawHeader("Mcp-Session-Id", sessionId);
        if (!protocolVersion.isEmpty())
            r.setRawHeader("MCP-Protocol-Version", protocolVersion.toUtf8());
        QEventLoop loop;
        QNetworkReply *reply = m_nam.deleteResource(r);
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (run(loop, IoTimeoutMs))
            reply->abort();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        return status;
    }

private:
    // An SSE answer is complete once the event holding the response has its blank line.
    static bool sseAnswered(const QByteArray &body) { return answered(body, "\"id\":1"); }
    static bool answered(const QByteArray &body, const char *idField)
    {
        const qsizetype at = body.indexOf(idField);
        return at >= 0 && (body.indexOf("\n\n", at) >= 0 || body.indexOf("\r\n\r\n", at) >= 0);
    }
    // True when it timed out.
    static bool run(QEventLoop &loop, int timeoutMs)
    {
        bool timedOut = false;
        QTimer timer;
        timer.setSingleShot(true);
        // A timer that dies with this run, not singleShot: the loop runs twice for one reply,
        // and a stray timeout from the first run must not end the second.
        QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
            timedOut = true;
            loop.quit();
        });
        timer.start(timeoutMs);
        loop.exec();
        return timedOut;
    }

    QUrl m_url;
    QNetworkAccessManager m_nam;
};

// ---- raw socket ---------------------------------------------------------------------------

// The same two figures with no HTTP stack at all (one blocking socket, requests by hand):
// one initialize, and initialize followed by notifications/initialized and the read,
// pipelined on the connection. Their ratio is what the protocol costs on this server alone.
struct RawFigures
{
    double initializeMs = 0;
    double recoveryMs = 0;
};

RawFigures rawRound(RawHttpClient &raw, const QString &uri)
{
    RawFigures f;
    qint64 start = raw.clockNs();
    raw.send(initializeBody());
    RawHttpClient::Response init = raw.receive("\"id\":1");
    f.initializeMs = double(init.answeredNs - start) / 1e6;
    raw.setSessionId(init.sessionId);
    if (raw.deleteSession() / 100 != 2)
        fail(1, u"raw client: the DELETE of its session failed"_s);

    start = raw.clockNs();
    raw.send(initializeBody());
    init = raw.receive("\"id\":1");
    if (init.sessionId.isEmpty())
        fail(1, u"raw client: initialize gave no session id"_s);
    raw.setSessionId(init.sessionId);
    raw.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    raw.send(QJsonDocument(QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                                       {"id"_L1, 2},
                                       {"method"_L1, "resources/read"_L1},
                                       {"params"_L1, QJsonObject{{"uri"_L1, uri}}}})
                 .toJson(QJsonDocument::Compact));
    raw.receive(); // the notification's 202
    const RawHttpClient::Response read = raw.receive("\"id\":2");
    if (read.answeredNs < 0 || !read.body.contains("\"result\""))
        fail(1, u"raw client: no read answer: "_s + QString::fromUtf8(read.body.left(300)));
    f.recoveryMs = double(read.answeredNs - start) / 1e6;
    if (raw.deleteSession() / 100 != 2)
        fail(1, u"raw client: the DELETE of its session failed"_s);
    return f;
}

// ---- engine path ------------------------------------------------------------------------

// One server through CoreHost, as a front end drives it: each step is issued, then a local
// event loop runs until its callFinished arrives.
class EngineBench
{
public:
    struct Cycle
    {
        Sonde::CallOutcome outcome;
        double callerMs = 0;              // the whole call on this thread's clock (sub-ms)
        std::optional<double> recoveryMs; // engine clock (us): expiry verdict -> retried answer
        QString rule;
        QString sessionIdBefore; // the real id the fault replaced
        QString protocolVersion;
    };

    explicit EngineBench(const QString &endpoint) : m_engine(httpConfig(endpoint))
    {
        Sonde::CoreHost &host = m_engine.host();
        QObject::connect(&host, &Sonde::CoreHost::callFinished, &host,
                         [this](const Sonde::CallOutcome &o) {
                             const qint64 ns = m_timer.nsecsElapsed();
                             if (o.ticket != m_ticket)
                                 return;
                             m_outcome = o;
                             m_outcomeNs = ns;
                             m_engine.quit();
                         });
        m_engine.start();
    }

    Sonde::CallOutcome read(const QString &uri)
    {
        m_engine.spin(
            [&] {
                m_timer.start();
                m_ticket = m_engine.host().call(m_engine.name(), u"resources/read"_s,
                                                QJsonObject{{"uri"_L1, uri}});
            },
            u"resources/read"_s);
        return m_outcome;
    }

    // Corrupt the session id, then read: the read meets the expiry answer, recovery starts
    // a new session and sends the read again.
    Cycle recover(const QString &uri)
    {
        Cycle c;
        const Sonde::SessionSnapshot before = m_engine.host().lastSnapshot(m_engine.name());
        c.sessionIdBefore = before.sessionId;
        c.protocolVersion = before.protocolVersion;
        Sonde::Fault f;
        f.kind = Sonde::Fault::Kind::CorruptSessionId;
        m_engine.spin([&] { m_ticket = m_engine.host().injectFault(m_engine.name(), f); },
                      u"fault injection"_s);
        if (!m_outcome.ok() || m_outcome.method != "sonde/fault"_L1)
            fail(1, u"engine: corrupt-session-id was not applied: "_s + m_outcome.error.message());
        c.outcome = read(uri);
        c.callerMs = double(m_outcomeNs) / 1e6;
        // The supervisor's own figure, from the expiry verdict to the retried answer.
        if (c.outcome.recovery) {
            c.recoveryMs = c.outcome.recovery->recoveryMs;
            c.rule = Sonde::ExpiryRules::name(c.outcome.recovery->rule);
        }
        return c;
    }

    void shutdown() { m_engine.shutdown(); }

private:
    EngineSession m_engine;
    QElapsedTimer m_timer;
    Sonde::CallOutcome m_outcome;
    qint64 m_outcomeNs = 0;
    quint64 m_ticket = 0;
};

// Why a run is not the path measured here, or empty when it is.
QString deviation(const EngineBench::Cycle &c)
{
    const Sonde::CallOutcome &o = c.outcome;
    if (!o.ok())
        return u"the read failed: "_s + o.error.message();
    const bool replayed = o.recovery && o.recovery->replayed;
    if (o.attempts != 2 || !replayed)
        return u"answered after %1 attempt(s), replayed=%2"_s.arg(o.attempts)
            .arg(replayed ? u"true"_s : u"false"_s);
    if (!c.recoveryMs)
        return u"the answer carries no recovery_ms"_s;
    return {};
}

// ---- one server -------------------------------------------------------------------------

void benchServer(Server::Kind kind, const Options &o)
{
    const Server server(kind);
    const QString endpoint = server.endpoint();
    const QString uri = server.readUri();
    out(u"== "_s + server.label());
    out(u"   endpoint: "_s + endpoint);
    out(u"   read:     "_s + uri);
    out(QString());

    Loopback http(endpoint);
    EngineBench engine(endpoint);
    if (const Sonde::CallOutcome warm = engine.read(uri); !warm.ok())
        fail(1, u"engine: the warm-up read failed: "_s + warm.error.message());

    RawHttpClient raw(endpoint);
    std::vector<double> interval, whole, callerWhole, init, initFresh, bare, rawInit, rawRecovery;
    QStringList deviations;
    QMap<QString, int> rules;
    int offPath = 0, sseAnswers = 0, endedAfter = 0, leftOpen = 0, undeleted = 0;
    // One untimed round of each first: the first recovery and the first initialize pay for
    // one-time work (connection set-up, lazily built state) that is not what is measured.
    for (int i = -1; i < o.runs; ++i) {
        const EngineBench::Cycle c = engine.recover(uri);
        // The session the fault orphaned is still alive on the server (only its id was
        // replaced on our side): end it, outside the timed part, so that the server does not
        // carry one more session into every following run.
        if (!c.sessionIdBefore.isEmpty() &&
            http.deleteSession(c.sessionIdBefore.toUtf8(), c.protocolVersion) / 100 != 2)
            ++undeleted;
        // Alternated so that background load drifts into both columns alike.
        const Loopback::Initialize b = http.initialize();
        const Loopback::Initialize fresh = http.initialize(true);
        const double bareMs = http.bareRecovery(uri);
        const RawFigures rawRun = rawRound(raw, uri);
        for (const QByteArray &id : {b.sessionId, fresh.sessionId}) {
            if (const int status = http.deleteSession(id); status / 100 != 2)
                fail(1, u"DELETE of a baseline session answered HTTP %1"_s.arg(status));
        }
        if (i < 0)
            continue;

        if (const QString why = deviation(c); !why.isEmpty()) {
            ++offPath;
            if (deviations.size() < ShownDeviations)
                deviations << u"run %1: %2"_s.arg(i + 1).arg(why);
        } else {
            interval.push_back(*c.recoveryMs);
            whole.push_back(double(c.outcome.finishedMs - c.outcome.startedMs));
            callerWhole.push_back(c.callerMs);
            ++rules[c.rule];
        }
        init.push_back(b.ms);
        initFresh.push_back(fresh.ms);
        bare.push_back(bareMs);
        rawInit.push_back(rawRun.initializeMs);
        rawRecovery.push_back(rawRun.recoveryMs);
        sseAnswers += b.sse;
        endedAfter += b.endedAfter;
        leftOpen += b.leftOpen;
    }
    engine.shutdown();

    out(u"Recovery: %1 runs of corrupt-session-id, then resources/read (after 1 warm-up read"
        " and 1 untimed run of each)"_s.arg(o.runs));
    QStringList seen;
    for (auto it = rules.cbegin(); it != rules.cend(); ++it)
        seen << u"%1 (%2)"_s.arg(it.key()).arg(it.value());
    out(u"  expiry answer classified as: "_s + (seen.isEmpty() ? u"-"_s : seen.join(u", "_s)));
    out(u"  took the expected path (ok, 2 attempts, replayed): %1 of %2"_s.arg(o.runs - offPath)
            .arg(o.runs));
    for (const QString &d : std::as_const(deviations))
        out(u"    "_s + d);
    if (offPath > deviations.size())
        out(u"    ... and %1 more"_s.arg(offPath - deviations.size()));
    if (interval.empty())
        fail(1, u"no run took the recovery path: nothing to report"_s);

    const double rMed = percentile(interval, 50), iMed = percentile(init, 50);
    auto row = [](const QString &label, const std::vector<double> &v, const QString &note) {
        out(u"  "_s + label.leftJustified(44) + num(percentile(v, 50), 8, 2) +
            num(percentile(v, 90), 9, 2) + num(mean(v), 9, 2) + u"   "_s + note);
    };
    out(u"                                                median      p90     mean"_s);
    row(u"expiry answer -> retried read answer (ms)"_s, interval,
        u"engine clock (us), the answer's recovery_ms"_s);
    row(u"whole recovered call (ms)"_s, whole, u"engine clock, 1 ms steps"_s);
    row(u"whole recovered call, caller's view (ms)"_s, callerWhole,
        u"this thread, call() to callFinished"_s);
    row(u"one plain initialize round trip (ms)"_s, init, u"QNetworkAccessManager, this thread"_s);
    row(u"  the same on a new manager (reference)"_s, initFresh,
        u"one new manager each, as a reconnect has"_s);
    row(u"protocol floor: initialize, then read (ms)"_s, bare,
        u"no engine: initialize; initialized + read at once"_s);
    row(u"raw socket: one initialize (ms)"_s, rawInit, u"no HTTP stack: one blocking socket"_s);
    row(u"raw socket: initialize, then read (ms)"_s, rawRecovery,
        u"initialized + read pipelined after it"_s);
    QString answers =
        u"  initialize answered as %1 JSON, %2 SSE"_s.arg(o.runs - sseAnswers).arg(sseAnswers);
    if (sseAnswers > 0)
        answers += u"; of the SSE streams %1 ended just after the result event (timed to the "
                   u"event), %2 were"
                   " still open %3 ms later"_s.arg(endedAfter)
                       .arg(leftOpen)
                       .arg(StreamEndWaitMs);
    out(answers);
    if (undeleted > 0)
        out(u"  note: %1 orphaned session(s) could not be deleted after their run"_s.arg(
            undeleted));
    const double bMed = percentile(bare, 50);
    out(u"  ratio: recovery median / initialize median = "_s +
        QString::number(rMed / iMed, 'f', 2) + u"x (the protocol floor alone: "_s +
        QString::number(bMed / iMed, 'f', 2) + u"x; Sonde's own share: "_s +
        QString::number(rMed - bMed, 'f', 2) + u" ms)"_s);
    out(u"  the same ratio with no HTTP stack (raw socket): "_s +
        QString::number(percentile(rawRecovery, 50) / percentile(rawInit, 50), 'f', 2) + u'x');
    const double rawRatio = percentile(rawRecovery, 50) / percentile(rawInit, 50);
    out(u"  goal: expiry answer -> retried read answer at most 2x one initialize round trip: "_s +
        verdict(rMed <= iMed * GoalRatio) +
        (rawRatio > GoalRatio
             ? u" (the protocol's own ratio on this server is above it, with no HTTP stack)"_s
         : bMed > iMed * GoalRatio ? u" (the protocol floor through Qt's HTTP stack is above it)"_s
                                   : QString()));
    out(QString());
}

Options parseOptions(const QStringList &args)
{
    Options o;
    OptionReader r(args);
    r.read(u"usage: sonde-bench-recovery [--runs N] [--server everything|demo|both]"_s,
           [&](const QString &a) {
               if (a == "--runs"_L1)
                   o.runs = r.count();
               else if (a == "--server"_L1)
                   chooseServers(r.value(), o.everything, o.demo);
               else
                   return false;
               return true;
           });
    if (o.everything)
        requireNodeModule(everythingPath());
    if (o.demo)
        requireBuilt(demoServerPath(), u"sonde-demo-server target"_s);
    return o;
}

} // namespace

int runBenchmark()
{
    const Options o = parseOptions(QCoreApplication::arguments());
    if (o.everything)
        benchServer(Server::Kind::Everything, o);
    if (o.demo)
        benchServer(Server::Kind::Demo, o);
    return 0;
}

int main(int argc, char **argv)
{
    clearProxyVariables();
    QCoreApplication app(argc, argv);
    return runGuarded("sonde-bench-recovery", runBenchmark);
}

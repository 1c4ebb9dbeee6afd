// SPDX-License-Identifier: MIT
#include "doctorrun.h"

#include "doctor/rawhttpprobes.h"
#include "doctor/rawstdioprobes.h"
#include "doctor/schemaarguments.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/mcp.h"
#include "secrets/secretstore.h"
#include "transport/transport.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// How long the engine may take to close the run's session before the report is given anyway.
constexpr int ShutdownBoundMs = 5000;

QByteArray compactJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The lists the run walks, each with the capability that declares it (the key holding the
// items is Mcp::listKeyFor's).
struct ListMethod
{
    const char *capability;
    const char *method;
};
constexpr ListMethod Lists[] = {
    {"tools", "tools/list"},
    {"resources", "resources/list"},
    {"resources", "resources/templates/list"},
    {"prompts", "prompts/list"},
};

bool isReadOnly(const QJsonObject &tool)
{
    return tool.value("annotations"_L1).toObject().value("readOnlyHint"_L1).toBool(false);
}

} // namespace

DoctorRun::DoctorRun(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    m_http = m_options.server.route != ServerConfig::Route::Stdio;
    m_linter.setStdio(!m_http);
}

DoctorRun::~DoctorRun() = default;

bool DoctorRun::wanted(const QString &checkId) const
{
    return m_options.only.isEmpty() || m_options.only.contains(checkId);
}

void DoctorRun::start()
{
    m_clock.start();
    m_report.server = m_options.server.name;
    m_report.target = m_options.server.route == ServerConfig::Route::Stdio
                          ? m_options.server.displayCommand()
                          : m_options.server.url.toString(QUrl::RemoveUserInfo);
    m_report.allowWrites = m_options.allowWrites;
    m_report.startedMs = QDateTime::currentMSecsSinceEpoch();

    m_host = std::make_unique<CoreHost>();
    // Roots only, answered with none: a server that asks for sampling or elicitation is told
    // the client does not have them, and its tools that need them stay hidden.
    m_host->setClientCapabilities({{"roots"_L1, QJsonObject{}}});
    m_host->setServerRequestHandler(this);
    if (m_options.secretStoreFactory)
        m_host->setSecretStoreFactory(m_options.secretStoreFactory);
    connect(m_host.get(), &CoreHost::authChanged, this, &DoctorRun::authChanged);
    connect(m_host.get(), &CoreHost::sessionChanged, this, &DoctorRun::onSession);
    connect(m_host.get(), &CoreHost::transcriptBatch, this, &DoctorRun::onTranscript);
    connect(m_host.get(), &CoreHost::callFinished, this, &DoctorRun::onCall);
    connect(m_host.get(), &CoreHost::shutdownFinished, this, &DoctorRun::finalizeReport);
    ServerConfig config = m_options.server;
    // The run reads the lists itself, page by page: nothing fetched behind its back.
    config.discoverBesideCalls = false;
    // Progress notifications keep a request alive; the doctor's bound is a bound all the same.
    // (The engine bounds a request by the larger of its timeout and this cap.)
    config.maxRequestTotalMs = std::min(m_options.toolTimeoutMs, m_options.probeTimeoutMs);
    m_host->addServer(config);
    Q_EMIT stepStarted(u"connecting"_s);
}

void DoctorRun::stop()
{
    m_stopped = true;
    finish();
}

void DoctorRun::handleServerRequest(const ServerRequest &request)
{
    ServerReply reply{request.server, request.generation, request.id, {}, {}};
    if (request.method == "roots/list"_L1)
        reply.result = {{"roots"_L1, QJsonArray{}}};
    else
        reply.error = Error::remote(-32601, u"the doctor declares no such capability"_s);
    m_host->reply(reply);
}

void DoctorRun::onTranscript(const TranscriptBatch &batch)
{
    for (const TranscriptEvent &e : batch) {
        const int index = m_transcriptIndex;
        if (e.direction == TranscriptEvent::Direction::Outgoing) {
            // Requests only: an answer to the server's own request carries its id too.
            if (const Transport::Outgoing out = Transport::outgoing(e.raw);
                !out.method.isEmpty() && (out.requestId.isString() || out.requestId.isDouble()))
                m_exchanges[JsonRpcMessage::idKey(out.requestId)].request =
                    e.raw.left(DoctorEvidenceLimit);
        } else if (e.direction == TranscriptEvent::Direction::Incoming) {
            // The id is often first; SDK servers write it last (then a small frame is read).
            std::optional<QJsonValue> id = JsonRpcMessage::leadingId(e.raw);
            if (!id && e.raw.size() < 1024 * 1024)
                if (const QJsonValue v = QJsonDocument::fromJson(e.raw).object().value("id"_L1);
                    v.isString() || v.isDouble())
                    id = v;
            if (id) {
                const auto it = m_exchanges.find(JsonRpcMessage::idKey(*id));
                if (it != m_exchanges.end()) {
                    it->response = e.raw.left(DoctorEvidenceLimit);
                    it->responseIndex = index;
                }
            }
        }
        if (m_exchanges.size() > 2048)
            m_exchanges.clear(); // the run's probes look back a few requests at most
        for (DoctorFinding &f : m_linter.feed(e, m_transcriptIndex++)) {
            f.live = false; // part of this run
            add(std::move(f));
        }
    }
    Q_EMIT transcriptBatch(batch);
}

void DoctorRun::fail(const QString &checkId, const QString &message, const CallOutcome &outcome,
                     const QByteArray &sent)
{
    const bool hasId = outcome.requestId.isString() || outcome.requestId.isDouble();
    const Exchange x =
        hasId ? m_exchanges.value(JsonRpcMessage::idKey(outcome.requestId)) : Exchange();
    ran(checkId);
    const DoctorCheck *check = DoctorCatalog::find(checkId);
    DoctorFinding f;
    f.checkId = checkId;
    f.severity = check ? check->severity : DoctorSeverity::Error;
    f.message = message;
    f.evidence.request = x.request.isEmpty() ? sent : x.request;
    f.evidence.response = x.response.isEmpty() ? outcome.error.message().toUtf8() : x.response;
    f.evidence.transcriptIndex = x.responseIndex;
    add(std::move(f));
}

bool DoctorRun::answeredUnreadably(const CallOutcome &outcome) const
{
    return outcome.error.kind() == Error::Kind::Timeout &&
           (outcome.requestId.isString() || outcome.requestId.isDouble()) &&
           !m_exchanges.value(JsonRpcMessage::idKey(outcome.requestId)).response.isEmpty();
}

void DoctorRun::onSession(const SessionSnapshot &s)
{
    m_snapshot = s;
    if (!s.sessionId.isEmpty() && !m_sessionIds.contains(s.sessionId))
        m_sessionIds << s.sessionId;
    if (m_connected || m_finishing)
        return;
    if (s.state == SessionSnapshot::State::Ready) {
        m_connected = true;
        m_rev20260728 = s.era == ServerConfig::Era::Rev20260728;
        m_http = s.route != ServerConfig::Route::Stdio;
        ran(u"connection.failed"_s);
        planSteps();
        next();
    } else if (s.state == SessionSnapshot::State::Failed) {
        ran(u"connection.failed"_s);
        fail(u"connection.failed"_s,
             u"Could not connect to %1: %2"_s.arg(m_report.target, s.lastError.message()));
        finish();
    }
}

void DoctorRun::call(const QString &method, const QJsonObject &params, int timeoutMs, Answered then,
                     bool withProgress)
{
    CallRequest r;
    r.server = m_options.server.name;
    r.method = method;
    r.params = params;
    r.timeoutMs = timeoutMs;
    r.followPages = false;
    r.withProgress = withProgress;
    m_pending.insert(m_host->call(std::move(r)), std::move(then));
}

void DoctorRun::onCall(const CallOutcome &outcome)
{
    if (answeredUnreadably(outcome) && !m_unreadable) {
        // Every later call would wait out its bound the same way: the engine-side steps
        // end here, and the raw probes, which read the answers themselves, still run.
        m_unreadable = true;
        m_steps.clear();
        m_steps << [this] { awaitRawProbes(); };
    }
    const Answered then = m_pending.take(outcome.ticket);
    if (then && !m_finishing)
        then(outcome);
}

void DoctorRun::next()
{
    // Waiting for the raw probes: a late answer of an abandoned step must not end the run.
    if (m_finishing || m_waitingForRaw)
        return;
    if (m_steps.isEmpty()) {
        finish();
        return;
    }
    const Step step = m_steps.takeFirst();
    // Queued: a step that ends at once must not grow the stack through the next one.
    QTimer::singleShot(0, this, step);
}

void DoctorRun::ran(const QString &checkId)
{
    m_ranActive.insert(checkId);
}

void DoctorRun::skip(const QString &checkId, const QString &why)
{
    if (!m_skipReasons.contains(checkId))
        m_skipReasons.insert(checkId, why);
}

void DoctorRun::add(DoctorFinding finding)
{
    if (!wanted(finding.checkId))
        return;
    for (const DoctorFinding &f : std::as_const(m_report.findings))
        if (f.checkId == finding.checkId && f.message == finding.message)
            return; // the engine's session and a raw probe saw the same thing
    m_report.findings.append(finding);
    Q_EMIT findingAdded(finding);
}

void DoctorRun::fail(const QString &checkId, const QString &message, const QByteArray &request,
                     const QByteArray &response)
{
    ran(checkId);
    const DoctorCheck *check = DoctorCatalog::find(checkId);
    DoctorFinding f;
    f.checkId = checkId;
    f.severity = check ? check->severity : DoctorSeverity::Error;
    f.message = message;
    f.evidence.request = request;
    f.evidence.response = response;
    add(std::move(f));
}

// --- The steps ------------------------------------------------------------------------------

void DoctorRun::planSteps()
{
    const QJsonObject caps = m_snapshot.serverCapabilities;
    if (!m_rev20260728 && wanted(u"ping.not-answered"_s))
        m_steps << [this] { stepPing(); };
    if (wanted(u"jsonrpc.unknown-method-code"_s))
        m_steps << [this] { stepUnknownMethod(); };
    m_steps << [this] { stepLists(); };
    // The raw probes use a process or HTTP session of their own: they run beside the steps
    // from here (they want a resource's URI, from the lists), and the last step waits.
    m_steps << [this] {
        startRawProbes();
        next();
    };
    if (wanted(u"pagination.invalid-cursor"_s))
        m_steps << [this] { stepInvalidCursor(); };
    if (caps.contains("tools"_L1)) {
        m_steps << [this] { stepBaseline(); } << [this] { stepTools(); };
    } else {
        for (const DoctorCheck &c : DoctorCatalog::all())
            if (c.id.startsWith(u"tools."_s))
                skip(c.id, u"the server declares no tools capability"_s);
    }
    m_steps << [this] { awaitRawProbes(); };
}

void DoctorRun::awaitRawProbes()
{
    if (!m_rawStarted)
        startRawProbes(); // the steps before were cut short (unreadable answers)
    if (m_rawDone) {
        next();
        return;
    }
    Q_EMIT stepStarted(u"the transport's own rules"_s);
    m_waitingForRaw = true;
}

void DoctorRun::rawProbesDone()
{
    m_rawDone = true;
    if (std::exchange(m_waitingForRaw, false))
        next();
}

void DoctorRun::stepPing()
{
    Q_EMIT stepStarted(u"ping"_s);
    call(u"ping"_s, {}, m_options.probeTimeoutMs, [this](const CallOutcome &o) {
        if (answeredUnreadably(o)) {
            skip(u"ping.not-answered"_s, u"answered, but not as JSON-RPC (see the envelope "
                                         u"check)"_s);
        } else {
            ran(u"ping.not-answered"_s);
            if (!o.ok())
                fail(u"ping.not-answered"_s,
                     u"ping was not answered with a result within %1 ms: %2"_s
                         .arg(m_options.probeTimeoutMs)
                         .arg(o.error.message()),
                     o);
        }
        next();
    });
}

void DoctorRun::stepUnknownMethod()
{
    Q_EMIT stepStarted(u"an unknown method"_s);
    call(u"sonde/doctor-unknown-method"_s, {}, m_options.probeTimeoutMs,
         [this](const CallOutcome &o) {
             const std::optional<int> code = o.error.jsonRpcCode();
             if (answeredUnreadably(o)) {
                 skip(u"jsonrpc.unknown-method-code"_s,
                      u"answered, but not as JSON-RPC (see the envelope check)"_s);
             } else if (o.error.kind() == Error::Kind::Timeout) {
                 ran(u"jsonrpc.unknown-method-code"_s);
                 fail(u"jsonrpc.unknown-method-code"_s,
                      u"An unknown method was not answered within %1 ms"_s.arg(
                          m_options.probeTimeoutMs),
                      o);
             } else if (o.ok() || code) {
                 ran(u"jsonrpc.unknown-method-code"_s);
                 if (o.ok() || *code != -32601)
                     fail(u"jsonrpc.unknown-method-code"_s,
                          o.ok() ? u"An unknown method was answered with a result"_s
                                 : u"An unknown method got the error %1, not -32601"_s.arg(*code),
                          o);
             } else {
                 skip(u"jsonrpc.unknown-method-code"_s,
                      u"the answer carried no JSON-RPC error: "_s + o.error.message());
             }
             next();
         });
}

void DoctorRun::stepLists()
{
    Q_EMIT stepStarted(u"the lists"_s);
    // One walk at a time, each its own step: the pages of one list follow one another.
    QList<Step> walks;
    for (const ListMethod &l : Lists) {
        if (!m_snapshot.serverCapabilities.contains(QLatin1String(l.capability)))
            continue;
        const QString method = QString::fromLatin1(l.method);
        walks << [this, method] {
            walkList(method, {}, 0, std::make_shared<QJsonArray>(),
                     std::make_shared<QSet<QString>>());
        };
    }
    m_steps = walks + m_steps;
    next();
}

void DoctorRun::walkList(const QString &method, const QString &cursor, int page,
                         std::shared_ptr<QJsonArray> items, std::shared_ptr<QSet<QString>> cursors)
{
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert("cursor"_L1, cursor);
    call(method, params, m_options.probeTimeoutMs,
         [this, method, page, items, cursors](const CallOutcome &o) {
             if (page == 0)
                 ran(u"capabilities.declared-not-implemented"_s);
             if (!o.ok()) {
                 if (page == 0 && o.error.jsonRpcCode() == -32601)
                     fail(u"capabilities.declared-not-implemented"_s,
                          u"%1 got -32601 (method not found), but the server declares the "
                          u"capability"_s.arg(method),
                          o);
                 m_lists.insert(method, *items);
                 next();
                 return;
             }
             const QJsonObject result = o.result.toObject();
             for (const QJsonValue &v : result.value(Mcp::listKeyFor(method)).toArray())
                 items->append(v);
             const QString nextCursor = result.value("nextCursor"_L1).toString();
             // A cursor seen before is the linter's finding; the walk stops there.
             if (nextCursor.isEmpty() || cursors->contains(nextCursor) ||
                 page + 1 >= m_options.maxPages) {
                 m_lists.insert(method, *items);
                 if (method == "tools/list"_L1)
                     m_tools = *items;
                 next();
                 return;
             }
             cursors->insert(nextCursor);
             walkList(method, nextCursor, page + 1, items, cursors);
         });
}

void DoctorRun::stepInvalidCursor()
{
    QString method;
    for (const ListMethod &l : Lists)
        if (method.isEmpty() && m_snapshot.serverCapabilities.contains(QLatin1String(l.capability)))
            method = QString::fromLatin1(l.method);
    if (method.isEmpty()) {
        skip(u"pagination.invalid-cursor"_s, u"the server declares no list"_s);
        next();
        return;
    }
    Q_EMIT stepStarted(u"an invalid cursor"_s);
    const QString cursor =
        u"sonde-doctor-invalid-cursor-%1"_s.arg(QRandomGenerator::global()->generate(), 0, 16);
    call(
        method, {{"cursor"_L1, cursor}}, m_options.probeTimeoutMs,
        [this, method](const CallOutcome &o) {
            if (!o.ok() && !o.error.jsonRpcCode()) {
                // A timeout, or an answer that was not a JSON-RPC answer to this request:
                // another check's finding, nothing to say about cursors.
                skip(u"pagination.invalid-cursor"_s, u"no readable answer: "_s + o.error.message());
            } else {
                ran(u"pagination.invalid-cursor"_s);
                if (o.ok())
                    fail(u"pagination.invalid-cursor"_s,
                         u"%1 with a cursor the server never issued was answered with a page"_s.arg(
                             method),
                         o);
                else if (o.error.jsonRpcCode() != -32602)
                    fail(u"pagination.invalid-cursor"_s,
                         u"%1 with a cursor the server never issued got %2, not -32602"_s.arg(
                             method, o.error.jsonRpcCode()
                                         ? u"the error %1"_s.arg(*o.error.jsonRpcCode())
                                         : o.error.message()),
                         o);
            }
            next();
        });
}

void DoctorRun::takeShot(std::function<void(const StateShot &)> then)
{
    // Every list and read at once: the answers land in one shot, whatever their order.
    auto shot = std::make_shared<StateShot>();
    auto waiting = std::make_shared<int>(0);
    auto done = [this, shot, waiting, then] {
        if (--*waiting == 0 && !m_finishing)
            then(*shot);
    };
    QStringList uris;
    for (const QJsonValue &r : m_lists.value(u"resources/list"_s))
        if (uris.size() < m_options.maxResourceReads)
            uris << r.toObject().value("uri"_L1).toString();
    for (const ListMethod &l : Lists)
        if (m_snapshot.serverCapabilities.contains(QLatin1String(l.capability)))
            ++*waiting;
    *waiting += int(uris.size());
    if (*waiting == 0) {
        then(*shot);
        return;
    }
    for (const ListMethod &l : Lists) {
        if (!m_snapshot.serverCapabilities.contains(QLatin1String(l.capability)))
            continue;
        const QString method = QString::fromLatin1(l.method);
        const QString key = Mcp::listKeyFor(method);
        CallRequest r;
        r.server = m_options.server.name;
        r.method = method;
        r.timeoutMs = m_options.probeTimeoutMs;
        r.followPages = true;
        m_pending.insert(m_host->call(std::move(r)),
                         [shot, method, key, done](const CallOutcome &o) {
                             if (o.ok())
                                 shot->add(method, o.result.toObject().value(key));
                             done();
                         });
    }
    for (const QString &uri : std::as_const(uris))
        call(u"resources/read"_s, {{"uri"_L1, uri}}, m_options.probeTimeoutMs,
             [shot, uri, done](const CallOutcome &o) {
                 if (o.ok())
                     shot->add(u"resource "_s + uri, o.result.toObject().value("contents"_L1));
                 done();
             });
}

void DoctorRun::stepBaseline()
{
    if (!wanted(u"tools.read-only-changed-state"_s)) {
        next();
        return;
    }
    Q_EMIT stepStarted(u"what the server shows, twice"_s);
    takeShot([this](const StateShot &first) {
        takeShot([this, first](const StateShot &second) {
            m_volatile = StateShot::volatileKeys(first, second);
            m_shot = second;
            next();
        });
    });
}

void DoctorRun::stepTools()
{
    QList<int> readOnly;
    for (int i = 0; i < m_tools.size(); ++i) {
        const QJsonObject tool = m_tools.at(i).toObject();
        if (isReadOnly(tool))
            readOnly << i;
        else if (!m_options.allowWrites)
            m_report.toolCalls.append(
                {tool.value("name"_L1).toString(), false, u"not called (no --allow-writes)"_s, 0});
    }
    if (readOnly.isEmpty()) {
        const QString why = m_options.allowWrites
                                ? u"no tool is annotated readOnlyHint: true"_s
                                : u"no tool is annotated readOnlyHint: true (--allow-writes "
                                  u"calls the others)"_s;
        for (const char *id : {"tools.read-only-changed-state", "tools.arguments-unbuildable",
                               "tools.call-no-answer"})
            skip(QString::fromLatin1(id), why);
    }
    Q_EMIT stepStarted(u"calling %1 read-only tools"_s.arg(readOnly.size()));
    // The read-only tools all at once, one shot after them: the run takes as long as the
    // slowest tool, not their sum. Only when the shot differs are they called again one by
    // one between shots, to name the one that changed something.
    auto waiting = std::make_shared<int>(int(readOnly.size()));
    auto afterAll = [this] {
        auto writes = [this] {
            if (m_options.allowWrites)
                callTool(0, true, false);
            else
                next();
        };
        if (!wanted(u"tools.read-only-changed-state"_s) || m_shot.isEmpty()) {
            writes();
            return;
        }
        takeShot([this, writes](const StateShot &after) {
            ran(u"tools.read-only-changed-state"_s);
            const QStringList changed = StateShot::differences(m_shot, after, m_volatile);
            if (changed.isEmpty()) {
                writes();
                return;
            }
            m_shot = after;
            m_unattributed = changed;
            callTool(0, false, true);
        });
    };
    if (readOnly.isEmpty()) {
        afterAll();
        return;
    }
    for (int i : std::as_const(readOnly))
        callOne(i, [waiting, afterAll] {
            if (--*waiting == 0)
                afterAll();
        });
}

void DoctorRun::callOne(int index, std::function<void()> then)
{
    const QJsonObject tool = m_tools.at(index).toObject();
    const QString name = tool.value("name"_L1).toString();
    const bool writes = !isReadOnly(tool);
    const SchemaArguments::Built args =
        SchemaArguments::build(tool.value("inputSchema"_L1).toObject());
    ran(u"tools.arguments-unbuildable"_s);
    if (!args.valid) {
        fail(u"tools.arguments-unbuildable"_s,
             u"No valid arguments for \"%1\" could be built from its inputSchema; not called"_s.arg(
                 name));
        then();
        return;
    }
    const QJsonObject params{{"name"_L1, name}, {"arguments"_L1, args.arguments}};
    const qint64 started = m_clock.elapsed();
    ran(u"tools.call-no-answer"_s);
    call(
        u"tools/call"_s, params, m_options.toolTimeoutMs,
        [this, writes, name, params, started, then](const CallOutcome &o) {
            DoctorReport::ToolCall c{name, !writes, u"ok"_s, m_clock.elapsed() - started};
            if (o.error.kind() == Error::Kind::Timeout) {
                c.outcome = u"timeout"_s;
                ran(u"tools.call-no-answer"_s);
                fail(u"tools.call-no-answer"_s,
                     u"\"%1\" did not answer within %2 ms (cancelled; --timeout S waits "
                     u"longer)"_s.arg(name)
                         .arg(m_options.toolTimeoutMs),
                     o, compactJson(params));
            } else if (o.error.kind() == Error::Kind::Application ||
                       o.result.toObject().value("isError"_L1).toBool()) {
                c.outcome = u"tool-error"_s; // isError: true, the tool's own failure
            } else if (!o.ok()) {
                c.outcome = u"error"_s;
            }
            m_report.toolCalls.append(c);
            then();
        },
        true);
}

void DoctorRun::callTool(int index, bool writes, bool attributing)
{
    if (index >= m_tools.size()) {
        if (attributing) {
            // Changed while all ran, and no single call changed it again: said as it is.
            if (!m_unattributed.isEmpty())
                fail(u"tools.read-only-changed-state"_s,
                     u"After the read-only tools ran, %1 changed; no single one of them changed "
                     u"it again when called alone"_s.arg(m_unattributed.join(u", "_s)));
            if (m_options.allowWrites) {
                callTool(0, true, false);
                return;
            }
        }
        next();
        return;
    }
    const QJsonObject tool = m_tools.at(index).toObject();
    const QString name = tool.value("name"_L1).toString();
    if (isReadOnly(tool) == writes) {
        callTool(index + 1, writes, attributing);
        return;
    }
    Q_EMIT stepStarted(attributing ? u"calling %1 again, alone"_s.arg(name)
                                   : u"calling %1"_s.arg(name));
    const SchemaArguments::Built args =
        SchemaArguments::build(tool.value("inputSchema"_L1).toObject());
    const QJsonObject params{{"name"_L1, name}, {"arguments"_L1, args.arguments}};
    callOne(index, [this, index, writes, attributing, name, params] {
        if (!attributing) {
            callTool(index + 1, writes, attributing);
            return;
        }
        takeShot([this, index, writes, name, params](const StateShot &after) {
            const QStringList changed = StateShot::differences(m_shot, after, m_volatile);
            if (!changed.isEmpty()) {
                const QString first = changed.constFirst();
                fail(u"tools.read-only-changed-state"_s,
                     u"\"%1\" is annotated readOnlyHint: true, but calling it changed %2"_s.arg(
                         name, changed.join(u", "_s)),
                     compactJson(params),
                     "before " + first.toUtf8() + ": " + m_shot.value(first) + "\nafter " +
                         first.toUtf8() + ": " + after.value(first));
                for (const QString &key : changed)
                    m_unattributed.removeAll(key);
                m_unattributed.clear(); // named: the first pass's change is explained
            }
            m_shot = after;
            callTool(index + 1, writes, true);
        });
    });
}

void DoctorRun::startRawProbes()
{
    if (std::exchange(m_rawStarted, true))
        return;
    auto merge = [this](const QStringList &ranIds, const QMap<QString, QString> &skipped) {
        for (const QString &id : ranIds)
            ran(id);
        for (auto it = skipped.begin(); it != skipped.end(); ++it)
            skip(it.key(), it.value());
    };
    if (m_snapshot.route == ServerConfig::Route::LegacySse) {
        for (const DoctorCheck &c : DoctorCatalog::all())
            if (c.transport == DoctorCheck::Transport::Http && c.kind == DoctorCheck::Kind::Active)
                skip(c.id, u"the server speaks the legacy HTTP+SSE transport (2024-11-05)"_s);
        m_rawDone = true;
        return;
    }
    if (m_http) {
        RawHttpProbes::Options o;
        o.server = m_options.server;
        o.rev20260728 = m_rev20260728;
        o.timeoutMs = m_options.probeTimeoutMs;
        o.only = m_options.only;
        o.resourceUri =
            m_lists.value(u"resources/list"_s).first().toObject().value("uri"_L1).toString();
        m_httpProbes = std::make_unique<RawHttpProbes>(o);
        connect(m_httpProbes.get(), &RawHttpProbes::found, this, &DoctorRun::add);
        connect(m_httpProbes.get(), &RawHttpProbes::finished, this, [this, merge] {
            merge(m_httpProbes->ran(), m_httpProbes->skipped());
            m_sessionIds += m_httpProbes->sessionIds();
            rawProbesDone();
        });
        m_httpProbes->start();
        return;
    }
    RawStdioProbes::Options o;
    o.server = m_options.server;
    o.rev20260728 = m_rev20260728;
    o.timeoutMs = m_options.probeTimeoutMs;
    o.only = m_options.only;
    m_stdioProbes = std::make_unique<RawStdioProbes>(o);
    connect(m_stdioProbes.get(), &RawStdioProbes::found, this, &DoctorRun::add);
    connect(m_stdioProbes.get(), &RawStdioProbes::finished, this, [this, merge] {
        merge(m_stdioProbes->ran(), m_stdioProbes->skipped());
        rawProbesDone();
    });
    m_stdioProbes->start();
}

void DoctorRun::finish()
{
    if (std::exchange(m_finishing, true))
        return;
    m_steps.clear();
    if (!m_host) {
        finalizeReport();
        return;
    }
    m_host->shutdown();
    // shutdownFinished() ends the run; a session that will not close does not hold it.
    QTimer::singleShot(ShutdownBoundMs, this, &DoctorRun::finalizeReport);
}

void DoctorRun::finalizeReport()
{
    if (m_report.durationMs > 0 || (!m_finishing))
        return;
    m_report.durationMs = std::max<qint64>(1, m_clock.elapsed());
    m_report.connected = m_connected;
    m_report.stopped = m_stopped;
    m_report.transport = ServerConfig::routeName(m_snapshot.route);
    m_report.era = m_snapshot.eraName();
    m_report.protocolVersion = m_snapshot.protocolVersion;
    m_report.serverInfo = m_snapshot.serverInfo;
    for (const DoctorCheck &c : DoctorCatalog::all()) {
        if (!wanted(c.id))
            continue;
        const bool found = std::any_of(m_report.findings.cbegin(), m_report.findings.cend(),
                                       [&c](const DoctorFinding &f) { return f.checkId == c.id; });
        if (found) {
            m_report.ran << c.id;
            continue;
        }
        if (!m_connected && c.id != "connection.failed"_L1) {
            m_report.skipped.insert(c.id, u"the server could not be reached"_s);
            continue;
        }
        if (!c.appliesTo(m_http, m_rev20260728)) {
            const bool transportFits = c.appliesTo(m_http, c.era == DoctorCheck::Era::Rev20260728);
            m_report.skipped.insert(
                c.id, !transportFits && c.transport == DoctorCheck::Transport::Http
                          ? u"HTTP servers only"_s
                      : !transportFits ? u"stdio servers only"_s
                      : c.era == DoctorCheck::Era::Rev20260728
                          ? u"servers of the 2026-07-28 revision only"_s
                          : u"servers of the initialize handshake (2025-11-25 and earlier) "
                            u"only"_s);
            continue;
        }
        // Some checks are both: a lint of every session and a probe of the run's own.
        const bool exercised = m_linter.exercised().contains(c.id) || m_ranActive.contains(c.id);
        if (exercised) {
            m_report.ran << c.id;
            continue;
        }
        QString why = m_skipReasons.value(c.id);
        if (why.isEmpty())
            why = m_stopped      ? u"the run was stopped first"_s
                  : m_unreadable ? u"the server's answers are not JSON-RPC the engine can read "
                                   u"(jsonrpc.envelope-invalid): the run's calls stopped"_s
                  : c.kind == DoctorCheck::Kind::Passive
                      ? u"nothing the server sent in this run had it to check"_s
                      : u"not probed"_s;
        m_report.skipped.insert(c.id, why);
    }
    Q_EMIT finished(m_report);
}

} // namespace Sonde

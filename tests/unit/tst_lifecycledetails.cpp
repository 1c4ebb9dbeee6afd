// SPDX-License-Identifier: MIT
// A lifecycle event's details, typed: each kind writes the transcript's "details" exactly as
// its producer wrote the JSON before it had a struct (the literal objects below are those
// producers' shapes), and a record read back is typed again and written back unchanged.
#include "values/lifecycledetails.h"

#include "jsontestdata.h"
#include <QJsonArray>

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using D = LifecycleDetails;

Q_DECLARE_METATYPE(Sonde::EventKind)

namespace {

using JsonTestData::compact;

// An error as a transport reports it: a status, the session id it carried, and a cause.
Error sampleError()
{
    Error e = Error::transport(u"the GET stream was refused"_s, Error::Condition::Closed);
    e.setHttpStatus(404).setSessionId(u"s-1"_s).setReach(Error::Reach::Written);
    e.setCause(Error::protocol(u"HTTP 404"_s));
    return e;
}

const QJsonObject SampleErrorJson{
    {"kind"_L1, u"transport"_s},
    {"message"_L1, u"the GET stream was refused"_s},
    {"reach"_L1, u"written"_s},
    {"http_status"_L1, 404},
    {"session_id"_L1, u"s-1"_s},
    {"cause"_L1, QJsonObject{{"kind"_L1, u"protocol"_s}, {"message"_L1, u"HTTP 404"_s}}}};

} // namespace

class TestLifecycleDetails : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachKindWritesWhatItsProducerWrote_data()
    {
        QTest::addColumn<LifecycleDetails>("details");
        QTest::addColumn<EventKind>("kind");
        QTest::addColumn<QJsonObject>("json");
        int rows = 0;
        QList<EventKind> covered;
        const auto row = [&](const char *name, const LifecycleDetails &d, EventKind kind,
                             const QJsonObject &json) {
            QTest::newRow(name) << d << kind << json;
            covered.append(kind);
            ++rows;
        };
        const QJsonValue id(7);

        // ServerSession
        row("a start names its route and command",
            D::Starting{.route = u"stdio"_s, .command = u"node server.js"_s}, EventKind::Starting,
            {{"route"_L1, u"stdio"_s}, {"command"_L1, u"node server.js"_s}});
        row("an open transport says what its route is",
            D::TransportOpen{{.program = u"node"_s, .pid = 4242}}, EventKind::TransportOpen,
            {{"program"_L1, u"node"_s}, {"pid"_L1, 4242}});
        row("a failed handshake is its error whole", D::InitializeFailed{sampleError()},
            EventKind::InitializeFailed, SampleErrorJson);
        row("a lost connection is its error whole", D::ConnectionLost{sampleError()},
            EventKind::ConnectionLost, SampleErrorJson);
        row("a ready session names its version, server and era",
            D::Ready{.protocolVersion = u"2025-11-25"_s,
                     .serverInfo = {{"name"_L1, u"demo"_s}},
                     .era = u"initialize"_s},
            EventKind::Ready,
            {{"protocol_version"_L1, u"2025-11-25"_s},
             {"server_info"_L1, QJsonObject{{"name"_L1, u"demo"_s}}},
             {"era"_L1, u"initialize"_s}});
        row("a closing session says nothing more", D::Closing{}, EventKind::Closing, {});
        row("a restart says why", D::Restarting{u"by hand"_s}, EventKind::Restarting,
            {{"cause"_L1, u"by hand"_s}});
        row("a drained session names its generation", D::Drained{3}, EventKind::Drained,
            {{"generation"_L1, 3}});
        row("an injected fault names itself", D::Fault{.description = u"kill-process"_s},
            EventKind::Fault, {{"kind"_L1, u"kill-process"_s}});
        row("armed faults a closed connection dropped say which and why",
            D::Fault{.dropped = QStringList{u"kill-during-next-call"_s}, .why = u"it closed"_s},
            EventKind::Fault,
            {{"dropped"_L1, QJsonArray{u"kill-during-next-call"_s}}, {"why"_L1, u"it closed"_s}});
        row("a clean close is the route's details alone",
            D::Closed{.transport = {.program = u"node"_s, .exitCode = 0}}, EventKind::Closed,
            {{"program"_L1, u"node"_s}, {"exit_code"_L1, 0}});
        row("a failed close adds its reason",
            D::Closed{.transport = {.url = u"http://x/mcp"_s}, .reason = sampleError()},
            EventKind::Closed, {{"url"_L1, u"http://x/mcp"_s}, {"reason"_L1, SampleErrorJson}});
        row("a late response names its id", D::LateResponseIgnored{id},
            EventKind::LateResponseIgnored, {{"id"_L1, 7}});
        row("a dropped reply names its id and why",
            D::ReplyDropped{.id = id, .reason = u"the session that asked is gone"_s},
            EventKind::ReplyDropped,
            {{"id"_L1, 7}, {"reason"_L1, u"the session that asked is gone"_s}});
        row("a failed request names its error's kind, message and status",
            D::RequestFailed{.id = id,
                             .method = u"tools/call"_s,
                             .errorKind = Error::Kind::Transport,
                             .message = u"HTTP 500"_s,
                             .httpStatus = 500},
            EventKind::RequestFailed,
            {{"id"_L1, 7},
             {"method"_L1, u"tools/call"_s},
             {"kind"_L1, u"transport"_s},
             {"message"_L1, u"HTTP 500"_s},
             {"http_status"_L1, 500}});
        row("a request that timed out says after how long",
            D::RequestTimedOut{.id = u"a-1"_s, .method = u"tools/list"_s, .afterMs = 30000},
            EventKind::RequestTimedOut,
            {{"id"_L1, u"a-1"_s}, {"method"_L1, u"tools/list"_s}, {"after_ms"_L1, 30000}});
        row("an era the probe chose names what the server supports",
            D::EraChosen{.era = u"2026-07-28"_s,
                         .reason = u"server/discover answered"_s,
                         .protocolVersion = u"2026-07-28"_s,
                         .supported = QStringList{u"2026-07-28"_s}},
            EventKind::EraChosen,
            {{"era"_L1, u"2026-07-28"_s},
             {"reason"_L1, u"server/discover answered"_s},
             {"protocol_version"_L1, u"2026-07-28"_s},
             {"supported"_L1, QJsonArray{u"2026-07-28"_s}}});
        row("an era the probe sent to the handshake has no version yet",
            D::EraChosen{.era = u"initialize"_s,
                         .reason = u"method not found"_s,
                         .supported = QStringList{}},
            EventKind::EraChosen,
            {{"era"_L1, u"initialize"_s},
             {"reason"_L1, u"method not found"_s},
             {"supported"_L1, QJsonArray{}}});
        row("an input request links the call's two legs",
            D::InputRequired{.id = id,
                             .nextId = 8,
                             .round = 1,
                             .method = u"tools/call"_s,
                             .name = u"ask-name"_s,
                             .requests = {{"who"_L1, u"elicitation/create"_s}}},
            EventKind::InputRequired,
            {{"id"_L1, 7},
             {"next_id"_L1, 8},
             {"round"_L1, 1},
             {"method"_L1, u"tools/call"_s},
             {"name"_L1, u"ask-name"_s},
             {"requests"_L1, QJsonObject{{"who"_L1, u"elicitation/create"_s}}}});
        row("an acknowledged listen says what was asked and granted",
            D::ListenAcknowledged{.id = id,
                                  .requested = {{"toolsListChanged"_L1, true}},
                                  .granted = {{"toolsListChanged"_L1, true}}},
            EventKind::ListenAcknowledged,
            {{"id"_L1, 7},
             {"requested"_L1, QJsonObject{{"toolsListChanged"_L1, true}}},
             {"granted"_L1, QJsonObject{{"toolsListChanged"_L1, true}}}});
        row("a listen the server completed ended gracefully",
            D::ListenEnded{.id = id, .graceful = true}, EventKind::ListenEnded,
            {{"id"_L1, 7}, {"graceful"_L1, true}});
        row("a refused listen says why",
            D::ListenEnded{.id = id, .graceful = false, .reason = u"HTTP 403"_s},
            EventKind::ListenEnded,
            {{"id"_L1, 7}, {"graceful"_L1, false}, {"reason"_L1, u"HTTP 403"_s}});
        row("a dropped listen says when it listens again",
            D::ListenDropped{.id = id, .retryInMs = 1000, .reason = u"closed"_s},
            EventKind::ListenDropped,
            {{"id"_L1, 7}, {"reason"_L1, u"closed"_s}, {"retry_in_ms"_L1, 1000}});
        row("a new task says when it is polled",
            D::TaskStatus{.id = id, .taskId = u"t-1"_s, .status = u"working"_s, .pollMs = 1000},
            EventKind::TaskStatus,
            {{"id"_L1, 7},
             {"task_id"_L1, u"t-1"_s},
             {"status"_L1, u"working"_s},
             {"poll_ms"_L1, 1000}});
        row("a task's status carries its message when it has one",
            D::TaskStatus{
                .id = id, .taskId = u"t-1"_s, .status = u"failed"_s, .message = u"no disk"_s},
            EventKind::TaskStatus,
            {{"id"_L1, 7},
             {"task_id"_L1, u"t-1"_s},
             {"status"_L1, u"failed"_s},
             {"message"_L1, u"no disk"_s}});

        // HTTP routes (the session adds the call's progress token)
        row("a challenge at the door names the call it held",
            D::AuthChallenge{.id = id,
                             .status = 403,
                             .wwwAuthenticate = u"Bearer error=\"insufficient_scope\""_s,
                             .progressToken = u"sonde-3"_s},
            EventKind::AuthChallenge,
            {{"id"_L1, 7},
             {"status"_L1, 403},
             {"www_authenticate"_L1, u"Bearer error=\"insufficient_scope\""_s},
             {"progress_token"_L1, u"sonde-3"_s}});
        row("a resumed stream names the last event id",
            D::StreamResume{.id = id, .lastEventId = u"e-3"_s, .delayMs = 0},
            EventKind::StreamResume,
            {{"id"_L1, 7}, {"last_event_id"_L1, u"e-3"_s}, {"delay_ms"_L1, 0}});
        row("a failed resumption says why",
            D::StreamResumeFailed{.id = id,
                                  .lastEventId = u"e-3"_s,
                                  .reason = u"HTTP 404"_s,
                                  .progressToken = u"sonde-3"_s},
            EventKind::StreamResumeFailed,
            {{"id"_L1, 7},
             {"last_event_id"_L1, u"e-3"_s},
             {"reason"_L1, u"HTTP 404"_s},
             {"progress_token"_L1, u"sonde-3"_s}});
        row("a torn-down route says what became of the DELETE",
            D::TornDown{u"not sent: the session is being replaced"_s}, EventKind::TornDown,
            {{"delete"_L1, u"not sent: the session is being replaced"_s}});
        row("a draining route counts its requests in flight",
            D::Draining{.requestsInFlight = 2,
                        .deleteNote = u"not sent: the session is being replaced"_s},
            EventKind::Draining,
            {{"requests_in_flight"_L1, 2},
             {"delete"_L1, u"not sent: the session is being replaced"_s}});
        row("the closing DELETE's answer",
            D::SessionDelete{.status = 200, .outcome = u"ended (HTTP 200)"_s},
            EventKind::SessionDelete, {{"status"_L1, 200}, {"outcome"_L1, u"ended (HTTP 200)"_s}});
        row("the fault's DELETE answer",
            D::FaultExpireSession{.status = 204, .outcome = u"the server ended the session"_s},
            EventKind::FaultExpireSession,
            {{"status"_L1, 204}, {"outcome"_L1, u"the server ended the session"_s}});
        row("an open GET stream names its last event id", D::GetStreamOpen{u"e-9"_s},
            EventKind::GetStreamOpen, {{"last_event_id"_L1, u"e-9"_s}});
        row("a GET stream not offered names the status", D::GetStreamUnavailable{405},
            EventKind::GetStreamUnavailable, {{"status"_L1, 405}});
        row("a failed GET stream names the status", D::GetStreamFailed{500},
            EventKind::GetStreamFailed, {{"status"_L1, 500}});
        row("a closed GET stream says when it reopens",
            D::GetStreamClosed{.reconnectInMs = 1000, .error = u"closed"_s},
            EventKind::GetStreamClosed, {{"reconnect_in_ms"_L1, 1000}, {"error"_L1, u"closed"_s}});
        row("the legacy route says why it was taken", D::LegacySse{u"POST answered 405"_s},
            EventKind::LegacySse, {{"reason"_L1, u"POST answered 405"_s}});
        row("the legacy route names its endpoint", D::LegacyEndpoint{u"http://x/messages"_s},
            EventKind::LegacyEndpoint, {{"endpoint"_L1, u"http://x/messages"_s}});
        row("a plain HTTP exchange keeps its bodies",
            D::HttpExchange{.method = u"POST"_s,
                            .url = u"http://x/mcp"_s,
                            .requestHeaders = {{u"Content-Type"_s, u"application/json"_s}},
                            .requestBytes = 2,
                            .requestBody = u"{}"_s,
                            .status = 200,
                            .statusText = u"OK"_s,
                            .responseHeaders = {{u"Mcp-Session-Id"_s, u"s-1"_s}},
                            .firstByteUs = 900,
                            .totalUs = 1200,
                            .responseBytes = 70000,
                            .contentType = u"application/json"_s,
                            .responseBody = u"{\"x\":1}"_s,
                            .responseBodyTruncatedAt = 65536},
            EventKind::HttpExchange,
            {{"method"_L1, u"POST"_s},
             {"url"_L1, u"http://x/mcp"_s},
             {"request_headers"_L1, QJsonArray{QJsonObject{{"name"_L1, u"Content-Type"_s},
                                                           {"value"_L1, u"application/json"_s}}}},
             {"request_bytes"_L1, 2},
             {"request_body"_L1, u"{}"_s},
             {"status"_L1, 200},
             {"status_text"_L1, u"OK"_s},
             {"response_headers"_L1,
              QJsonArray{QJsonObject{{"name"_L1, u"Mcp-Session-Id"_s}, {"value"_L1, u"s-1"_s}}}},
             {"first_byte_us"_L1, 900},
             {"total_us"_L1, 1200},
             {"response_bytes"_L1, 70000},
             {"content_type"_L1, u"application/json"_s},
             {"response_body"_L1, u"{\"x\":1}"_s},
             {"response_body_truncated_at"_L1, 65536}});
        row("an SSE exchange keeps its frames and says how many it dropped",
            D::HttpExchange{
                .method = u"GET"_s,
                .url = u"http://x/mcp"_s,
                .status = 200,
                .statusText = u"OK"_s,
                .firstByteUs = 10,
                .totalUs = 20,
                .responseBytes = 30,
                .contentType = u"text/event-stream"_s,
                .sse =
                    QList<D::HttpExchange::SseFrame>{
                        {.tUs = 15, .event = u"message"_s, .data = u"{}"_s, .id = u"e-1"_s}},
                .sseFramesKeptMax = 1000,
                .sseFramesDropped = 4,
                .error = u"Operation canceled"_s},
            EventKind::HttpExchange,
            {{"method"_L1, u"GET"_s},
             {"url"_L1, u"http://x/mcp"_s},
             {"request_headers"_L1, QJsonArray{}},
             {"request_bytes"_L1, 0},
             {"status"_L1, 200},
             {"status_text"_L1, u"OK"_s},
             {"response_headers"_L1, QJsonArray{}},
             {"first_byte_us"_L1, 10},
             {"total_us"_L1, 20},
             {"response_bytes"_L1, 30},
             {"content_type"_L1, u"text/event-stream"_s},
             {"sse"_L1, QJsonArray{QJsonObject{{"t_us"_L1, 15},
                                               {"event"_L1, u"message"_s},
                                               {"data"_L1, u"{}"_s},
                                               {"id"_L1, u"e-1"_s}}}},
             {"sse_frames_kept_max"_L1, 1000},
             {"sse_frames_dropped"_L1, 4},
             {"error"_L1, u"Operation canceled"_s}});

        // FaultInjectingTransport
        row("a killed process names its pid and when", D::FaultKill{.pid = 4242, .when = u"now"_s},
            EventKind::FaultKill, {{"pid"_L1, 4242}, {"when"_L1, u"now"_s}});
        row("a corrupted session id says nothing more", D::FaultCorruptSessionId{},
            EventKind::FaultCorruptSessionId, {});
        row("a dropped connection counts its open streams", D::FaultDropConnection{2},
            EventKind::FaultDropConnection, {{"open_streams"_L1, 2}});
        row("an injected status names it", D::FaultHttpStatus{503}, EventKind::FaultHttpStatus,
            {{"status"_L1, 503}});
        row("an answer replaced after dispatch names its request",
            D::FaultExpireAfterDispatch{.id = id, .note = u"the server ran the request"_s},
            EventKind::FaultExpireAfterDispatch,
            {{"id"_L1, 7}, {"note"_L1, u"the server ran the request"_s}});
        row("a 2026-07-28 fault names itself and its request",
            D::FaultRev20260728{.fault = u"drop-listen"_s, .id = id}, EventKind::FaultRev20260728,
            {{"fault"_L1, u"drop-listen"_s}, {"id"_L1, 7}});

        // ServerSupervisor
        AuthStep step;
        step.name = u"token"_s;
        step.method = u"POST"_s;
        step.url = QUrl(u"https://as.example/token"_s);
        step.status = 200;
        step.chosen = u"client_secret_basic"_s;
        step.startedMs = 5;
        step.elapsedMs = 40;
        row("an authorization step is the step whole", D::AuthStep{step}, EventKind::AuthStep,
            {{"step"_L1, u"token"_s},
             {"ok"_L1, true},
             {"started_ms"_L1, 5},
             {"elapsed_ms"_L1, 40},
             {"method"_L1, u"POST"_s},
             {"url"_L1, u"https://as.example/token"_s},
             {"status"_L1, 200},
             {"chosen"_L1, u"client_secret_basic"_s}});
        AuthState state;
        state.server = u"demo"_s;
        state.status = AuthState::Status::AwaitingUser;
        state.issuer = u"https://as.example/"_s;
        state.scopes = {u"mcp:read"_s};
        state.authorizationUrl = QUrl(u"https://as.example/authorize?x=a%20b"_s);
        state.steps = {step};
        row("where authorization stands leaves its steps to their own events", D::AuthState{state},
            EventKind::AuthState,
            {{"server"_L1, u"demo"_s},
             {"status"_L1, u"awaiting-user"_s},
             {"has_refresh_token"_L1, false},
             {"scopes"_L1, QJsonArray{u"mcp:read"_s}},
             {"issuer"_L1, u"https://as.example/"_s},
             {"authorization_url"_L1, u"https://as.example/authorize?x=a%20b"_s}});

        // Every kind a session, a transport or the supervisor records outside its history
        // has a row.
        for (int k = int(EventKind::Starting); k <= int(EventKind::HttpExchange); ++k) {
            const auto kind = EventKind(k);
            const bool history =
                kind >= EventKind::Classification && kind <= EventKind::BreakerRefused;
            if (!history && !covered.contains(kind))
                qFatal("no row for %s", qPrintable(eventKindName(kind)));
        }
        QVERIFY(rows > 0);
    }
    void eachKindWritesWhatItsProducerWrote()
    {
        QFETCH(LifecycleDetails, details);
        QFETCH(EventKind, kind);
        QFETCH(QJsonObject, json);
        QCOMPARE(details.kind(), kind);
        QCOMPARE(details.name(), eventKindName(kind));
        const QJsonObject written = details.toJson();
        QCOMPARE(written.keys(), json.keys());
        QCOMPARE(compact(written), compact(json));
        // Record -> typed -> record.
        const LifecycleDetails back = LifecycleDetails::fromJson(eventKindName(kind), written);
        QCOMPARE(back.body.index(), details.body.index());
        QCOMPARE(back.kind(), kind);
        QCOMPARE(compact(back.toJson()), compact(json));
    }

    // A history entry is written whole, and a record with its "type" and "t_ms" reads back as
    // that entry, also for a kind a session records too (a fault).
    void aHistoryEntryIsItsOwnAlternative()
    {
        const HistoryEvent h{
            1700000000200, HistoryEvent::Fault{.description = u"kill-process"_s, .applied = true}};
        const LifecycleDetails d = h;
        QCOMPARE(d.kind(), EventKind::Fault);
        QCOMPARE(d.toJson(), h.toJson());
        const LifecycleDetails back = LifecycleDetails::fromJson(u"fault"_s, d.toJson());
        QVERIFY(back.as<HistoryEvent>());
        QVERIFY(*back.as<HistoryEvent>() == h);
    }

    void aKindThisBuildDoesNotKnowSurvivesAsUntyped()
    {
        const QJsonObject json{{"shiny"_L1, true}, {"id"_L1, 7}};
        const LifecycleDetails d = LifecycleDetails::fromJson(u"a-newer-kind"_s, json);
        const auto *untyped = d.as<D::Untyped>();
        QVERIFY(untyped);
        QCOMPARE(untyped->type, u"a-newer-kind"_s);
        QCOMPARE(d.kind(), EventKind::Other);
        QCOMPARE(d.name(), u"a-newer-kind"_s);
        QCOMPARE(compact(d.toJson()), compact(json));
    }
};

QTEST_GUILESS_MAIN(TestLifecycleDetails)
#include "tst_lifecycledetails.moc"

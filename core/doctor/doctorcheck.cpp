// SPDX-License-Identifier: MIT
#include "doctorcheck.h"

using namespace Qt::StringLiterals;

namespace Sonde {

bool DoctorCheck::appliesTo(bool http, bool rev20260728) const
{
    if ((transport == Transport::Http && !http) || (transport == Transport::Stdio && http))
        return false;
    return era == Era::Any || (era == Era::Rev20260728) == rev20260728;
}

namespace {

constexpr auto Site = "https://modelcontextprotocol.io/specification/";
constexpr auto Rev25 = "2025-11-25";
constexpr auto Rev26 = "2026-07-28";

using T = DoctorCheck::Transport;
using E = DoctorCheck::Era;
using K = DoctorCheck::Kind;
using S = DoctorSeverity;

DoctorCheck make(const char *id, S severity, K kind, T transport, E era, const char *title,
                 const char *rule, const char *revision, const char *section, const char *path,
                 const char *fix)
{
    DoctorCheck c;
    c.id = QString::fromLatin1(id);
    c.severity = severity;
    c.kind = kind;
    c.transport = transport;
    c.era = era;
    c.title = QString::fromUtf8(title);
    c.rule = QString::fromUtf8(rule);
    c.revision = QString::fromLatin1(revision);
    c.section = QString::fromUtf8(section);
    c.url = QString::fromLatin1(path).startsWith(u"http"_s)
                ? QString::fromLatin1(path)
                : QString::fromLatin1(Site) + QString::fromLatin1(revision) + u'/' +
                      QString::fromLatin1(path);
    c.fix = QString::fromUtf8(fix);
    return c;
}

QList<DoctorCheck> build()
{
    // The rules are quoted from the spec repository (modelcontextprotocol/modelcontextprotocol,
    // docs/specification/REV/...); docs/doctor.md says for each what it probes and why.
    return {
        make("connection.failed", S::Error, K::Active, T::Any, E::Any,
             "The server could not be reached or refused the handshake",
             "The initialization phase MUST be the first interaction between client and server.",
             Rev25, "basic/lifecycle.mdx, Initialization", "basic/lifecycle#initialization",
             "Run the same command or URL by hand; the message says what the connection saw."),
        make("jsonrpc.envelope-invalid", S::Error, K::Passive, T::Any, E::Any,
             "A message is not valid JSON-RPC 2.0",
             "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 "
             "specification.",
             Rev25, "basic/index.mdx, Messages", "basic/index#messages",
             "Send \"jsonrpc\": \"2.0\" on every message, and exactly one of result or error "
             "(an error with an integer code and a string message) on every response."),
        make("jsonrpc.response-id-mismatch", S::Error, K::Passive, T::Any, E::Any,
             "A response does not carry its request's id",
             "Result responses MUST include the same ID as the request they correspond to.", Rev25,
             "basic/index.mdx, Result Responses", "basic/index#result-responses",
             "Echo the request's id unchanged, with its JSON type: 5 and \"5\" are different "
             "ids."),
        make("jsonrpc.unknown-method-code", S::Warning, K::Active, T::Any, E::Any,
             "An unknown method is not answered with -32601",
             "-32601 | Method not found | The method does not exist / is not available. "
             "(JSON-RPC 2.0, section 5.1)",
             Rev25, "JSON-RPC 2.0, Error object",
             "https://www.jsonrpc.org/specification#error_object",
             "Answer a method the server does not implement with the error code -32601."),
        make("stdio.non-jsonrpc-stdout", S::Error, K::Passive, T::Stdio, E::Any,
             "The server writes something other than MCP messages to stdout",
             "The server MUST NOT write anything to its stdout that is not a valid MCP message.",
             Rev25, "basic/transports.mdx, stdio", "basic/transports#stdio",
             "Log to stderr (console.error, logging to sys.stderr), never to stdout; banners "
             "and debug prints break every client's framing."),
        make("stdio.ignores-stdin-close", S::Warning, K::Active, T::Stdio, E::Any,
             "The server does not exit when its stdin closes",
             "Servers SHOULD exit promptly when their standard input is closed or reads return "
             "end-of-file.",
             Rev26, "basic/transports/stdio.mdx, Shutdown", "basic/transports/stdio#shutdown",
             "Exit on end of input (process.stdin.on('end'), an EOF from sys.stdin): clients "
             "otherwise wait out their grace period and then kill the server. A server of "
             "2025-11-25 or earlier is told this as information."),
        make("lifecycle.initialize-result-invalid", S::Error, K::Passive, T::Any, E::Initialize,
             "The initialize result lacks a required field",
             "The server MUST respond with its own capabilities and information", Rev25,
             "basic/lifecycle.mdx, Initialization (InitializeResult requires "
             "protocolVersion, capabilities, serverInfo with name and version)",
             "basic/lifecycle#initialization",
             "Answer initialize with protocolVersion, capabilities and serverInfo {name, "
             "version}."),
        make("lifecycle.version-negotiation", S::Error, K::Active, T::Any, E::Initialize,
             "The server accepts a protocol version it cannot speak",
             "If the server supports the requested protocol version, it MUST respond with the "
             "same version. Otherwise, the server MUST respond with another protocol version it "
             "supports.",
             Rev25, "basic/lifecycle.mdx, Version Negotiation",
             "basic/lifecycle#version-negotiation",
             "Echo the client's version only when it is one the server supports; otherwise "
             "answer with the latest version the server speaks."),
        make("lifecycle.request-before-initialized", S::Warning, K::Active, T::Any, E::Initialize,
             "The server sends a request before notifications/initialized",
             "The server SHOULD NOT send requests other than pings and logging before receiving "
             "the initialized notification.",
             Rev25, "basic/lifecycle.mdx, Initialization", "basic/lifecycle#initialization",
             "Wait for notifications/initialized before asking the client for roots, sampling or "
             "elicitation."),
        make("ping.not-answered", S::Error, K::Active, T::Any, E::Initialize,
             "ping is not answered with an empty result",
             "The receiver MUST respond promptly with an empty response", Rev25,
             "basic/utilities/ping.mdx, Behavior Requirements",
             "basic/utilities/ping#behavior-requirements",
             "Answer ping with {} at once, whatever else the server is doing."),
        make("capabilities.undeclared-notification", S::Error, K::Passive, T::Any, E::Any,
             "The server sends a notification of a capability it did not declare",
             "Both parties MUST: Respect the negotiated protocol version; Only use capabilities "
             "that were successfully negotiated",
             Rev25, "basic/lifecycle.mdx, Operation", "basic/lifecycle#operation",
             "Declare listChanged (tools, prompts, resources), resources.subscribe or logging "
             "before sending their notifications, or stop sending them."),
        make("capabilities.undeclared-request", S::Error, K::Passive, T::Any, E::Any,
             "The server asks the client for a capability the client did not declare",
             "Both parties MUST: Respect the negotiated protocol version; Only use capabilities "
             "that were successfully negotiated",
             Rev25, "basic/lifecycle.mdx, Operation", "basic/lifecycle#operation",
             "Read the client's capabilities and send sampling, roots or elicitation requests "
             "only to clients that declared them."),
        make("capabilities.declared-not-implemented", S::Error, K::Active, T::Any, E::Any,
             "A declared capability's list method is missing",
             "Servers that declare the tools capability MUST respond to tools/list requests with "
             "the set of tools currently available to the requesting client.",
             Rev26,
             "server/tools.mdx, Capabilities (the same for resources and prompts; "
             "2025-11-25 says it in lower case in architecture/index.mdx)",
             "server/tools#capabilities",
             "Implement the list method of every capability the server declares, or stop "
             "declaring it."),
        make("tools.input-schema-invalid", S::Error, K::Passive, T::Any, E::Any,
             "A tool's inputSchema is not a JSON Schema object of type object",
             "MUST be a valid JSON Schema object (not null)", Rev25,
             "server/tools.mdx, Tool (the schema requires type: \"object\" at the root)",
             "server/tools#tool",
             "Give every tool an inputSchema with \"type\": \"object\"; a tool without "
             "arguments has {\"type\": \"object\", \"additionalProperties\": false}."),
        make("tools.output-schema-invalid", S::Error, K::Passive, T::Any, E::Any,
             "A tool's outputSchema is not a JSON Schema object of type object",
             "Currently restricted to type: \"object\" at the root level.", Rev25,
             "schema.ts, Tool.outputSchema", "schema#tool-outputschema",
             "Wrap a list or scalar result in an object and describe that object."),
        make("tools.duplicate-name", S::Warning, K::Passive, T::Any, E::Any,
             "Two tools have the same name", "Tool names SHOULD be unique within a server.", Rev25,
             "server/tools.mdx, Tool Names", "server/tools#tool-names",
             "Give each tool its own name: a client calls by name, and only one of the two is "
             "reachable."),
        make("tools.name-invalid", S::Warning, K::Passive, T::Any, E::Any,
             "A tool name uses characters or a length the spec advises against",
             "Tool names SHOULD be between 1 and 128 characters in length (inclusive).", Rev25,
             "server/tools.mdx, Tool Names (A-Z, a-z, 0-9, _, - and . only)",
             "server/tools#tool-names",
             "Use 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot."),
        make("tools.output-schema-violation", S::Error, K::Passive, T::Any, E::Any,
             "structuredContent does not conform to the tool's outputSchema",
             "Servers MUST provide structured results that conform to this schema.", Rev25,
             "server/tools.mdx, Output Schema", "server/tools#output-schema",
             "Return structuredContent that validates against the outputSchema, or fix the "
             "schema to say what the tool returns."),
        make("tools.structured-content-missing", S::Error, K::Passive, T::Any, E::Any,
             "A tool with an outputSchema returns no structuredContent",
             "Servers MUST provide structured results that conform to this schema.", Rev25,
             "server/tools.mdx, Output Schema (if an output schema is provided)",
             "server/tools#output-schema",
             "Return structuredContent on every successful call of a tool that declares an "
             "outputSchema."),
        make("tools.structured-content-text", S::Warning, K::Passive, T::Any, E::Any,
             "structuredContent is not also returned as text",
             "For backwards compatibility, a tool that returns structured content SHOULD also "
             "return the serialized JSON in a TextContent block.",
             Rev25, "server/tools.mdx, Structured Content", "server/tools#structured-content",
             "Add a text content block holding JSON.stringify(structuredContent)."),
        make("tools.read-only-changed-state", S::Error, K::Active, T::Any, E::Any,
             "A tool annotated readOnlyHint: true changed what the server lists or serves",
             "readOnlyHint: If true, the tool does not modify its environment.", Rev25,
             "schema.ts, ToolAnnotations", "schema#toolannotations-readonlyhint",
             "Drop readOnlyHint from a tool that changes anything: clients approve read-only "
             "tools without asking and replay them after a reconnect, so a write would run "
             "unasked or twice."),
        make("tools.call-no-answer", S::Info, K::Active, T::Any, E::Any,
             "A tool did not answer within the doctor's time bound",
             "Implementations SHOULD establish timeouts for all sent requests, to prevent hung "
             "connections and resource exhaustion.",
             Rev25, "basic/lifecycle.mdx, Timeouts", "basic/lifecycle#timeouts",
             "Answer within a client's timeout, or send progress notifications while working."),
        make("tools.arguments-unbuildable", S::Info, K::Active, T::Any, E::Any,
             "The doctor could not build valid arguments for a tool from its inputSchema",
             "MUST be a valid JSON Schema object (not null)", Rev25, "server/tools.mdx, Tool",
             "server/tools#tool",
             "Give required properties a default or examples, so clients can offer a call."),
        make("pagination.cursor-repeats", S::Error, K::Passive, T::Any, E::Any,
             "A list's nextCursor comes back: the list never ends",
             "An optional nextCursor field if more results exist", Rev25,
             "server/utilities/pagination.mdx, Response Format (and: Servers SHOULD provide "
             "stable cursors)",
             "server/utilities/pagination#response-format",
             "Leave nextCursor out of the last page; a client that follows cursors as the spec "
             "says loops for ever otherwise."),
        make("pagination.invalid-cursor", S::Warning, K::Active, T::Any, E::Any,
             "An invalid cursor is not refused with -32602",
             "Invalid cursors SHOULD result in an error with code -32602 (Invalid params).", Rev25,
             "server/utilities/pagination.mdx, Error Handling",
             "server/utilities/pagination#error-handling",
             "Refuse a cursor the server did not issue with -32602 instead of starting the list "
             "again."),
        make("progress.not-increasing", S::Error, K::Passive, T::Any, E::Any,
             "Progress does not increase",
             "The progress value MUST increase with each notification, even if the total is "
             "unknown.",
             Rev25, "basic/utilities/progress.mdx, Progress Flow",
             "basic/utilities/progress#progress-flow",
             "Send a larger progress value in each notification for a token."),
        make("progress.unknown-token", S::Error, K::Passive, T::Any, E::Any,
             "A progress notification names a token no request carried",
             "Progress notifications MUST only reference tokens that: Were provided in an active "
             "request; Are associated with an in-progress operation",
             Rev25, "basic/utilities/progress.mdx, Behavior Requirements",
             "basic/utilities/progress#behavior-requirements",
             "Send progress only with the progressToken from the request's _meta."),
        make("http.unknown-session-status", S::Error, K::Active, T::Http, E::Initialize,
             "A request with an unknown session id does not get 404",
             "The server MAY terminate the session at any time, after which it MUST respond to "
             "requests containing that session ID with HTTP 404 Not Found.",
             Rev25, "basic/transports.mdx, Session Management",
             "basic/transports#session-management",
             "Answer a session id the server does not hold (expired, restarted, never issued) "
             "with 404: that is what makes a client start a new session; a 400 leaves it "
             "failing for ever."),
        make("http.origin-not-validated", S::Error, K::Active, T::Http, E::Any,
             "A request with a foreign Origin is not refused with 403",
             "If the Origin header is present and invalid, servers MUST respond with HTTP 403 "
             "Forbidden.",
             Rev25, "basic/transports.mdx, Security Warning", "basic/transports#security-warning",
             "Check Origin on every request and answer 403 to origins the server does not "
             "serve: without it, any web page can reach a local server (DNS rebinding)."),
        make("http.session-id-charset", S::Error, K::Active, T::Http, E::Initialize,
             "Mcp-Session-Id has characters outside visible ASCII",
             "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to "
             "0x7E).",
             Rev25, "basic/transports.mdx, Session Management",
             "basic/transports#session-management",
             "Mint session ids from a UUID or random bytes in hex or base64url."),
        make("http.protocol-version-not-validated", S::Error, K::Active, T::Http, E::Initialize,
             "An unsupported MCP-Protocol-Version header is not refused with 400",
             "If the server receives a request with an invalid or unsupported "
             "MCP-Protocol-Version, it MUST respond with 400 Bad Request.",
             Rev25, "basic/transports.mdx, Protocol Version Header",
             "basic/transports#protocol-version-header",
             "Compare the header with the versions the server speaks and answer 400 to any "
             "other."),
        make("http.notification-not-202", S::Error, K::Active, T::Http, E::Initialize,
             "A notification is not answered 202 Accepted with no body",
             "If the server accepts the input, the server MUST return HTTP status code 202 "
             "Accepted with no body.",
             Rev25, "basic/transports.mdx, Sending Messages to the Server",
             "basic/transports#sending-messages-to-the-server",
             "Answer POSTed notifications and responses with 202 and an empty body."),
        make("http.response-content-type", S::Error, K::Active, T::Http, E::Any,
             "A request is answered with a content type other than JSON or SSE",
             "If the input is a JSON-RPC request, the server MUST either return Content-Type: "
             "text/event-stream, to initiate an SSE stream, or Content-Type: application/json, "
             "to return one JSON object.",
             Rev25, "basic/transports.mdx, Sending Messages to the Server",
             "basic/transports#sending-messages-to-the-server",
             "Answer requests with application/json or text/event-stream."),
        make("http.get-stream-invalid", S::Error, K::Active, T::Http, E::Initialize,
             "GET is answered with neither an SSE stream nor 405",
             "The server MUST either return Content-Type: text/event-stream in response to this "
             "HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server "
             "does not offer an SSE stream at this endpoint.",
             Rev25, "basic/transports.mdx, Listening for Messages from the Server",
             "basic/transports#listening-for-messages-from-the-server",
             "Serve GET as an SSE stream, or answer 405."),
        make("http.delete-not-ended", S::Error, K::Active, T::Http, E::Initialize,
             "A session accepted as deleted still works",
             "The server MAY terminate the session at any time, after which it MUST respond to "
             "requests containing that session ID with HTTP 404 Not Found.",
             Rev25, "basic/transports.mdx, Session Management",
             "basic/transports#session-management",
             "When DELETE is accepted, drop the session: later requests with its id get 404. A "
             "server that keeps sessions answers DELETE with 405 instead."),
        make("http.header-mismatch-not-rejected", S::Error, K::Active, T::Http, E::Rev20260728,
             "A request whose Mcp-Method header contradicts its body is served",
             "Servers that process the request body MUST reject requests where the values "
             "specified in the headers do not match the corresponding values in the request "
             "body.",
             Rev26, "basic/transports/streamable-http.mdx, Server Validation",
             "basic/transports/streamable-http#server-validation",
             "Compare Mcp-Method (and Mcp-Name) with the body and answer 400 with -32020 "
             "(HeaderMismatch) when they differ."),
        make("http.unknown-method-status", S::Error, K::Active, T::Http, E::Rev20260728,
             "An unknown method does not get 404 with -32601",
             "If the server does not implement the requested RPC method, it MUST respond with "
             "404 Not Found and a JSON-RPC error with code -32601 (Method not found).",
             Rev26, "basic/transports/streamable-http.mdx, Protocol Version Header",
             "basic/transports/streamable-http#protocol-version-header",
             "Answer unknown methods with HTTP 404 and the JSON-RPC error -32601."),
        make("versioning.unsupported-version-error", S::Error, K::Active, T::Any, E::Rev20260728,
             "A request of an unsupported protocol version is not refused with -32022",
             "If the server does not implement the requested version (whether the version is "
             "unknown to the server, or is a known version the server has chosen not to "
             "support), it MUST respond with an UnsupportedProtocolVersionError listing the "
             "versions it does support",
             Rev26, "basic/versioning.mdx, Protocol Version Negotiation",
             "basic/versioning#protocol-version-negotiation",
             "Refuse a request whose _meta protocolVersion the server does not speak with "
             "-32022 and data.supported (over HTTP with status 400)."),
        make("rev20260728.missing-meta-accepted", S::Error, K::Active, T::Http, E::Rev20260728,
             "A request without the required _meta fields is served",
             "A request missing any required field is malformed; the server MUST reject it with "
             "JSON-RPC error code -32602 (Invalid params). On HTTP, the response status MUST be "
             "400 Bad Request.",
             Rev26, "basic/index.mdx, _meta", "basic/index#meta",
             "Refuse requests without io.modelcontextprotocol/protocolVersion or "
             "io.modelcontextprotocol/clientCapabilities in _meta."),
        make("discover.result-invalid", S::Error, K::Passive, T::Any, E::Rev20260728,
             "The server/discover result lacks a required field",
             "Servers MUST implement server/discover.", Rev26,
             "basic/versioning.mdx, Protocol Version Negotiation (DiscoverResult requires "
             "supportedVersions and capabilities)",
             "basic/versioning#protocol-version-negotiation",
             "Answer server/discover with supportedVersions (the revisions the server speaks) "
             "and capabilities."),
        make("rev20260728.result-type-missing", S::Error, K::Passive, T::Any, E::Rev20260728,
             "A result of 2026-07-28 has no resultType",
             "The result MUST include a resultType field to indicate the type of the result.",
             Rev26, "basic/index.mdx, Result Responses", "basic/index#result-responses",
             "Put \"resultType\": \"complete\" on every result."),
        make("rev20260728.result-type-unknown", S::Error, K::Passive, T::Any, E::Rev20260728,
             "A result has a resultType the revision does not define",
             "A resultType of any value unrecognized by the client MUST be considered invalid.",
             Rev26, "basic/index.mdx, ResultType", "basic/index#resulttype",
             "Use \"complete\" or \"input_required\" (or a type an extension the client "
             "declared defines)."),
        make("rev20260728.server-request", S::Error, K::Passive, T::Any, E::Rev20260728,
             "The server sends a JSON-RPC request to the client",
             "Servers MUST NOT initiate JSON-RPC requests", Rev26, "basic/patterns/index.mdx",
             "basic/patterns/index",
             "Ask for input with an input_required result (MRTR) instead of a request."),
        make("listen.not-acknowledged-first", S::Error, K::Passive, T::Any, E::Rev20260728,
             "A listen stream carries a notification before its acknowledgment",
             "The server MUST send notifications/subscriptions/acknowledged as the first "
             "message carrying the subscription's ID in _meta under "
             "io.modelcontextprotocol/subscriptionId, and MUST NOT send any notification on the "
             "subscription before it.",
             Rev26, "basic/patterns/subscriptions.mdx, Acknowledgment",
             "basic/patterns/subscriptions#acknowledgment",
             "Send notifications/subscriptions/acknowledged, with the granted filter, before "
             "anything else on a subscriptions/listen stream."),
        make("listen.unrequested-notification", S::Error, K::Passive, T::Any, E::Rev20260728,
             "A listen stream carries a notification type the client did not ask for",
             "The server MUST NOT send notification types the client has not explicitly "
             "requested.",
             Rev26, "basic/patterns/subscriptions.mdx, Opening a Stream",
             "basic/patterns/subscriptions#opening-a-stream",
             "Send on a subscription only the types its notifications filter asked for "
             "(toolsListChanged, promptsListChanged, resourcesListChanged, and updates of the "
             "resourceSubscriptions URIs)."),
        make("http.get-not-405", S::Warning, K::Active, T::Http, E::Rev20260728,
             "A server of 2026-07-28 alone answers GET or DELETE with something other than 405",
             "HTTP GET or DELETE to the MCP endpoint: respond with 405 Method Not Allowed.", Rev26,
             "basic/transports/streamable-http.mdx, Earlier Streamable HTTP Revisions",
             "basic/transports/streamable-http#earlier-streamable-http-revisions",
             "Answer GET and DELETE with 405: this revision has no GET stream and no sessions "
             "to delete."),
        make("cache.hints-missing", S::Error, K::Passive, T::Any, E::Rev20260728,
             "A cacheable result carries no ttlMs or cacheScope",
             "Servers MUST include caching hints on results with resultType: \"complete\" "
             "returned by server/discover, tools/list, prompts/list, resources/list, "
             "resources/templates/list and resources/read.",
             Rev26, "server/utilities/caching.mdx, Cacheable Results",
             "server/utilities/caching#cacheable-results",
             "Add ttlMs (an integer >= 0) and cacheScope (\"public\" or \"private\") to those "
             "results."),
        make("cache.hint-invalid", S::Error, K::Passive, T::Any, E::Rev20260728,
             "ttlMs or cacheScope has a value the spec does not allow",
             "Servers MUST provide a ttlMs value that is >= 0.", Rev26,
             "server/utilities/caching.mdx, Time-to-Live (TTL) Field (cacheScope is \"public\" "
             "or \"private\")",
             "server/utilities/caching#time-to-live-ttl-field",
             "Send ttlMs as a non-negative integer and cacheScope as \"public\" or \"private\"."),
    };
}

} // namespace

const QList<DoctorCheck> &DoctorCatalog::all()
{
    static const QList<DoctorCheck> checks = build();
    return checks;
}

const DoctorCheck *DoctorCatalog::find(QStringView id)
{
    for (const DoctorCheck &c : all())
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace Sonde

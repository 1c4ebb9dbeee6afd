// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/limits.h"

#include "config/placeholderresolver.h"
#include "protocol/error.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QUrl>

#include <optional>

namespace Sonde {

// How to reach one server, as plain data. Front ends build it (from flags, a config file or
// the GUI's settings) and hand a copy to the engine; the core never reads settings itself.
struct ServerConfig
{
    enum class Route
    {
        Stdio,
        StreamableHttp,
        LegacySse
    };
    // Which protocol revisions the connection speaks (docs/protocol.md): Initialize is the
    // initialize handshake and sessions (2025-11-25 and earlier), Rev20260728 the sessionless
    // 2026-07-28 revision; Auto probes and falls back to the handshake.
    enum class Era
    {
        Auto,
        Initialize,
        Rev20260728
    };

    QString name;
    Route route = Route::Stdio;
    Era era = Era::Auto;

    // stdio: launched as program + arguments, never through a shell.
    QString program;
    QStringList arguments;
    QMap<QString, QString> environment; // added to (overriding) the inherited environment
    // Variables the user marked plain: the window keeps their values in its settings. Every
    // other value of `environment` is a secret it keeps in its SecretStore (WorkspaceSecrets).
    QStringList plainEnvironment;
    QString workingDirectory;

    // HTTP
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    // Header names the user marked secret. Those, Authorization and names that say token,
    // key, secret or cookie are kept by the window in its SecretStore, never in its settings
    // (WorkspaceSecrets in ui/application/workspace/).
    QList<QByteArray> secretHeaders;

    // OAuth 2.1 (docs/auth.md): what the user told Sonde about its identity at this server.
    // Everything else (metadata, registration, tokens) is discovered or comes from the flow.
    struct Auth
    {
        enum class Agent
        {
            Browser,   // the system browser opens the authorize URL (the window)
            NoBrowser, // the URL is printed; a loopback listener waits for the redirect
            Headless,  // the authorize URL is followed without a browser (conformance, tests)
        };
        QString clientId;     // pre-registered; empty: CIMD or dynamic registration
        QString clientSecret; // pre-registered; held in memory, stored only in the keyring
        QString scope;        // the user's override; empty: WWW-Authenticate, then scopes_supported
        QUrl clientMetadataUrl; // an https CIMD client id; empty: Sonde's own when it has one
        Agent agent = Agent::Browser;
        int flowTimeoutMs = 300'000; // the whole flow, including the user in the browser
        int stepUpLimit = 2;         // re-authorizations for insufficient_scope per request
        bool enabled = true;         // off: a 401 is just an error (the old behaviour)
    };
    Auth auth;

    int requestTimeoutMs = 60'000;   // reset by progress notifications
    int maxRequestTotalMs = 600'000; // the cap progress cannot extend past
    int initializeTimeoutMs = 30'000;
    // How long auto waits for server/discover before taking the server for a legacy one
    // (stdio: a legacy server may not answer an unknown request before initialize at all).
    int discoverTimeoutMs = 5'000;
    // Streamable HTTP: how long a resumed stream (GET + Last-Event-ID after a request's
    // stream broke) may yield nothing before the resumption counts as failed. A server that
    // kept nothing of the stream never answers it; the request then ends as §2 of
    // docs/recovery.md says (a read is sent again, a write is uncertain) instead of at its
    // own timeout.
    int resumeTimeoutMs = 10'000;
    // 2026-07-28 over HTTP: ask server/discover beside the first calls, for the capabilities (and
    // so the listen stream) and the server's identity. Off for a one-shot command that needs
    // neither: on a single-threaded server the extra request would delay the one that counts.
    bool discoverBesideCalls = true;
    // One http-exchange event per HTTP request (headers, bodies, SSE frames, timings: what HAR
    // is made of). Off unless something keeps the transcript (the window, --history,
    // --transcript): copying every request and answer into JSON costs each call tens of
    // microseconds on the engine's thread for a record nobody would read.
    bool recordHttpExchanges = false;
    // Whether the history keeps this server's payloads (params, results, bodies); off, its
    // events keep their method, id and size only (HistoryStore::setPayloadsRecorded). The
    // window's choice per server; the engine ignores it.
    bool recordPayloads = true;
    // Whether this server is told the client renders MCP Apps (the io.modelcontextprotocol/ui
    // extension in the capabilities), when the front end declares it: off, the user sees
    // what the server gives a client without Apps (its text fallback).
    bool mcpApps = true;
    int shutdownGraceMs = 500;    // after closing stdin, before SIGTERM
    int terminateGraceMs = 1'000; // after SIGTERM, before SIGKILL
    // The largest frame taken from this server (a stdio line, an SSE event, a JSON body);
    // one over it fails its request (or drops that event), naming the limit.
    qsizetype maxFrameBytes = Limits::DefaultMaxFrameBytes;

    // Recovery (docs/recovery.md): breaker policy, one time budget per user action for waiting on
    // a reconnect, an optional keepalive ping, and the user's per-tool replay overrides
    // (true: read-only, replay after recovery; false: write-capable, never replay).
    // Whose defaults recovery runs with (docs/recovery.md §10). Interactive, Sonde's own: a
    // developer restarting their server wants Sonde back with it, so reconnects back off to
    // 10 s (parked: probed every 30 s), and while the server is not connected the breaker
    // does not refuse a call: the call asks for a reconnect at once and waits for it (nothing
    // reaches a server that is not there; the reconnect closes the breaker). Agent: the
    // contract of ../shared/RECOVERY.md as it is (60 s, 300 s, refused while open).
    enum class RecoveryProfile
    {
        Interactive,
        Agent
    };
    RecoveryProfile recoveryProfile = RecoveryProfile::Interactive;
    int breakerThreshold = 3;
    int breakerCooldownMs = 60'000;
    int recoveryBudgetMs = 15'000;
    int pingIntervalMs = 0; // 0: no keepalive
    QMap<QString, bool> toolReadOnlyOverrides;

    QString routeName() const { return routeName(route); }
    // "stdio", "streamable-http", "sse": the names the snapshot, the history and the
    // transports' details use.
    static QString routeName(Route route);
    static std::optional<Route> routeFromName(QStringView name);
    static QString eraName(Era era);
    static QString recoveryProfileName(RecoveryProfile profile);
    // "interactive" or "agent"; nullopt for anything else.
    static std::optional<RecoveryProfile> recoveryProfileFromName(const QString &name);
    static QString authAgentName(Auth::Agent agent);
    // "browser", "no-browser" or "headless"; nullopt for anything else.
    static std::optional<Auth::Agent> authAgentFromName(const QString &name);
    // "auto", "initialize" or "2026-07-28" (and the old "legacy" and "modern"); nullopt for
    // anything else.
    static std::optional<Era> eraFromName(const QString &name);
    // The exact command line, quoted for display (shown before an imported entry runs).
    QString displayCommand() const;
};

// Reads the server maps that Claude Desktop / Cursor ("mcpServers") and VS Code ("servers")
// write. Errors name the file position or the server and key, and suggest the key that was
// probably meant, so a typo never turns into a silently ignored setting. The file may be
// JSONC (comments, trailing commas: JsoncReader). Placeholders (PlaceholderResolver) in
// command, args, env values, cwd, url and header values are resolved while reading; a
// server whose placeholders cannot be resolved is left out of `servers` and listed in
// `unresolved` with the reason, so one entry needing an input does not make the rest of the
// file unusable.
class ServerConfigFile
{
public:
    struct Options
    {
        // Off for Sonde's own saved workspace, which holds values resolved already.
        bool resolvePlaceholders = true;
        // Empty: the process environment.
        PlaceholderResolver::Environment environment;
        // Empty: ${input:...} cannot be resolved (headless front ends).
        PlaceholderResolver::InputProvider inputProvider;
        // Empty: load() derives it from the file's path (workspaceFolderFor).
        QString workspaceFolder;
    };
    struct Result
    {
        QMap<QString, ServerConfig> servers;
        QMap<QString, Error> unresolved;   // server name -> the placeholder that failed
        QMap<QString, ConfigInput> inputs; // VS Code's "inputs", by id
        QStringList warnings;
        Error error;
    };
    static Result parse(const QByteArray &json, const QString &sourceName);
    static Result parse(const QByteArray &json, const QString &sourceName, const Options &options);
    static Result load(const QString &path);
    static Result load(const QString &path, const Options &options);

    // What ${workspaceFolder} means for a config file. VS Code keeps a workspace's mcp.json
    // in <workspace>/.vscode/, so there it is the parent of .vscode; Claude Code's .mcp.json
    // and other files sit in the folder they describe, so elsewhere it is the file's folder.
    static QString workspaceFolderFor(const QString &configPath);
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::ServerConfig)

// SPDX-License-Identifier: MIT
#include "clioptions.h"

#include "protocol/rev20260728.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

// The longest time any option takes, in seconds: a day (its milliseconds fit in an int).
static constexpr int MaxSeconds = 86'400;

QString CliOptions::usage()
{
    return uR"(usage: sonde-cli CONNECTION [OPTIONS] COMMAND
CONNECTION: --command PROGRAM [--arg A]... [--env K=V]... [--cwd DIR]
          | --url URL [--header "Name: value"]...
          | --config FILE --server NAME
OPTIONS:  --era auto|initialize|2026-07-28 (default auto: initialize first over stdio,
            server/discover first over HTTP)
          --timeout SECONDS  --transcript FILE  --quiet  --show-secrets
          --shutdown-grace MS (default 100)  --log-level LEVEL  --version  --help
          --max-frame-mb N (default 64: the largest line, SSE event or JSON body taken)
          --breaker-threshold N  --breaker-cooldown S  --recovery-budget S  --ping-interval S
          --resume-timeout S (default 10: a resumed SSE stream that yields nothing this long
            is a failed resumption)
          --recovery interactive|agent (default interactive: a call while the server is
            down waits for a reconnect made at once; agent: RECOVERY.md's refusals and waits)
          --read-only TOOL ...  --write-capable TOOL ...   (replay overrides)
          --root URI|PATH ...  --sampling-text TEXT  --sampling-model NAME
          --elicitation accept|decline|cancel  --elicitation-content JSON
          --url-elicitation accept|decline
          --client-id ID  --client-secret SECRET  --scope "A B"  --client-metadata-url URL
          --no-browser (print the authorization URL)  --auth-agent browser|no-browser|headless
          --no-auth (a 401 is an error; no authorization flow)
          --secrets-file FILE (tokens in an encrypted file, SONDE_SECRETS_PASSPHRASE)
          --history FILE (every event of the run into this SQLite history)
COMMAND:  info | ping | tools list | tools call NAME [JSON] | resources list
          | resources templates | resources read URI | prompts list
          | prompts get NAME [JSON] | exec [FILE|-]
          | auth login | auth status | auth logout   (OAuth 2.1, HTTP servers)
          | conformance-client URL   (for the official conformance harness)
          | run COLLECTION.json [--junit OUT.xml] [--auth-agent A]   (a saved collection,
            docs/collections.md; its "server" replaces CONNECTION)
   or:    sonde-cli history import FILE.jsonl|INSPECTOR.json --db DB
          | history search TEXT --db DB [--server S] [--limit N]
          | history sessions --db DB [--server S]   (newest first: the ids --session takes)
          | history export --db DB --format jsonl|md|har|otlp --out FILE [--session ID]
              [--to URL]   (otlp: also POST it to an OTLP/HTTP collector)
)"_s;
}

// The harness's MCP_CONFORMANCE_CONTEXT carries pre-registered credentials for the scenarios
// that test them ({"client_id", "client_secret"}); the CIMD URL is the one its scenarios
// expect a client to use as its client id.
static void applyConformanceCredentials(ServerConfig::Auth *auth)
{
    const QJsonObject context =
        QJsonDocument::fromJson(qgetenv("MCP_CONFORMANCE_CONTEXT")).object();
    if (auth->clientId.isEmpty())
        auth->clientId = context.value("client_id"_L1).toString();
    if (auth->clientSecret.isEmpty())
        auth->clientSecret = context.value("client_secret"_L1).toString();
    if (auth->clientMetadataUrl.isEmpty())
        auth->clientMetadataUrl = QUrl(u"https://conformance-test.local/client-metadata.json"_s);
}

bool CliOptions::parse(const QStringList &args, CliOptions *o, QString *error)
{
    QString configPath, serverName;
    bool graceGiven = false;
    std::optional<ServerConfig::Era> era;
    std::optional<ServerConfig::Auth::Agent> agent;
    ServerConfig::Auth authFlags;
    bool noAuth = false;
    auto need = [&](qsizetype &i, QString *value) {
        if (i + 1 >= args.size()) {
            *error = u"%1 needs a value"_s.arg(args[i]);
            return false;
        }
        *value = args[++i];
        return true;
    };
    auto jsonObject = [&](const QString &text, const QString &what, QJsonObject *out) {
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &pe);
        if (pe.error != QJsonParseError::NoError || !d.isObject()) {
            *error = u"%1 must be a JSON object (%2)"_s.arg(
                what, pe.error != QJsonParseError::NoError ? pe.errorString()
                                                           : u"got another JSON type"_s);
            return false;
        }
        *out = d.object();
        return true;
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        QString v;
        // Options are taken wherever they stand, after the command too (`tools call X '{}'
        // --transcript t.jsonl`): one left unread would be a promise silently broken. The
        // command's own words never start with "--".
        if (!a.startsWith("--"_L1)) {
            o->command.append(a);
            continue;
        }
        if (a == "--quiet"_L1) {
            o->quiet = true;
            continue;
        }
        if (a == "--show-secrets"_L1) {
            o->showSecrets = true;
            continue;
        }
        if (a == "--no-browser"_L1) {
            agent = ServerConfig::Auth::Agent::NoBrowser;
            continue;
        }
        if (a == "--no-auth"_L1) {
            noAuth = true;
            continue;
        }
        if (a == "--help"_L1) {
            *error = QString();
            return false;
        }
        if (a == "--version"_L1) {
            o->version = true;
            *error = QString();
            return false;
        }
        static const QStringList valueOptions = {u"--command"_s,
                                                 u"--arg"_s,
                                                 u"--env"_s,
                                                 u"--cwd"_s,
                                                 u"--url"_s,
                                                 u"--header"_s,
                                                 u"--config"_s,
                                                 u"--server"_s,
                                                 u"--timeout"_s,
                                                 u"--era"_s,
                                                 u"--shutdown-grace"_s,
                                                 u"--max-frame-mb"_s,
                                                 u"--breaker-threshold"_s,
                                                 u"--breaker-cooldown"_s,
                                                 u"--recovery-budget"_s,
                                                 u"--ping-interval"_s,
                                                 u"--resume-timeout"_s,
                                                 u"--recovery"_s,
                                                 u"--read-only"_s,
                                                 u"--write-capable"_s,
                                                 u"--transcript"_s,
                                                 u"--history"_s,
                                                 u"--log-level"_s,
                                                 u"--root"_s,
                                                 u"--sampling-text"_s,
                                                 u"--sampling-model"_s,
                                                 u"--elicitation"_s,
                                                 u"--url-elicitation"_s,
                                                 u"--elicitation-content"_s,
                                                 u"--client-id"_s,
                                                 u"--client-secret"_s,
                                                 u"--scope"_s,
                                                 u"--client-metadata-url"_s,
                                                 u"--auth-agent"_s,
                                                 u"--secrets-file"_s};
        // Before asking for a value: a misspelt flag is unknown, not short of a value.
        if (!valueOptions.contains(a)) {
            *error =
                o->command.isEmpty()
                    ? u"unknown option %1"_s.arg(a)
                    : u"unknown option %1 after the command %2"_s.arg(a, o->command.join(u' '));
            return false;
        }
        if (!need(i, &v))
            return false;
        if (a == "--command"_L1)
            o->server.program = v;
        else if (a == "--arg"_L1)
            o->server.arguments.append(v);
        else if (a == "--env"_L1) {
            const qsizetype eq = v.indexOf(u'=');
            if (eq <= 0) {
                *error = u"--env wants K=V, got \"%1\""_s.arg(v);
                return false;
            }
            o->server.environment.insert(v.left(eq), v.mid(eq + 1));
        } else if (a == "--cwd"_L1)
            o->server.workingDirectory = v;
        else if (a == "--url"_L1)
            o->server.url = QUrl(v, QUrl::StrictMode);
        else if (a == "--era"_L1) {
            era = ServerConfig::eraFromName(v);
            if (!era) {
                *error = u"--era wants auto, initialize or 2026-07-28, got \"%1\""_s.arg(v);
                return false;
            }
        } else if (a == "--secrets-file"_L1) {
            o->secretsFile = v;
        } else if (a == "--client-id"_L1) {
            authFlags.clientId = v;
        } else if (a == "--client-secret"_L1) {
            authFlags.clientSecret = v;
        } else if (a == "--scope"_L1) {
            authFlags.scope = v.simplified();
        } else if (a == "--client-metadata-url"_L1) {
            authFlags.clientMetadataUrl = QUrl(v, QUrl::StrictMode);
            if (authFlags.clientMetadataUrl.scheme() != "https"_L1 ||
                authFlags.clientMetadataUrl.path().isEmpty()) {
                *error = u"--client-metadata-url wants an https URL with a path (a CIMD client "
                         u"id), got \"%1\""_s.arg(v);
                return false;
            }
        } else if (a == "--auth-agent"_L1) {
            agent = ServerConfig::authAgentFromName(v);
            if (!agent) {
                *error = u"--auth-agent wants browser, no-browser or headless, got \"%1\""_s.arg(v);
                return false;
            }
        } else if (a == "--header"_L1) {
            const qsizetype colon = v.indexOf(u':');
            if (colon <= 0) {
                *error = u"--header wants \"Name: value\", got \"%1\""_s.arg(v);
                return false;
            }
            o->server.headers.append(
                {v.left(colon).trimmed().toUtf8(), v.mid(colon + 1).trimmed().toUtf8()});
        } else if (a == "--config"_L1)
            configPath = v;
        else if (a == "--server"_L1)
            serverName = v;
        else if (a == "--timeout"_L1) {
            bool ok = false;
            const double s = v.toDouble(&ok);
            // Finite and at most a day: 1e9 or inf overflowed the milliseconds into "timed
            // out after 0 ms", and nan passed every comparison.
            if (!ok || !(s > 0 && s <= MaxSeconds)) {
                *error =
                    u"--timeout wants seconds, 0 < S <= %1, got \"%2\""_s.arg(MaxSeconds).arg(v);
                return false;
            }
            o->server.requestTimeoutMs = int(s * 1000);
            o->server.initializeTimeoutMs = int(s * 1000);
        } else if (a == "--max-frame-mb"_L1) {
            bool ok = false;
            const double mb = v.toDouble(&ok);
            if (!ok || !(mb > 0 && mb <= 4096)) {
                *error = u"--max-frame-mb wants 0 < N <= 4096, got \"%1\""_s.arg(v);
                return false;
            }
            o->server.maxFrameBytes = qsizetype(mb * 1024 * 1024);
        } else if (a == "--shutdown-grace"_L1) {
            bool ok = false;
            const int ms = v.toInt(&ok);
            if (!ok || ms < 0) {
                *error = u"--shutdown-grace wants milliseconds, got \"%1\""_s.arg(v);
                return false;
            }
            o->server.shutdownGraceMs = ms;
            graceGiven = true;
        } else if (a == "--recovery"_L1) {
            const std::optional<ServerConfig::RecoveryProfile> p =
                ServerConfig::recoveryProfileFromName(v);
            if (!p) {
                *error = u"--recovery wants interactive or agent, got \"%1\""_s.arg(v);
                return false;
            }
            o->server.recoveryProfile = *p;
        } else if (a == "--resume-timeout"_L1) {
            bool ok = false;
            const double s = v.toDouble(&ok);
            if (!ok || !(s > 0) || s > 3600) {
                *error = u"--resume-timeout wants seconds, 0 < S <= 3600, got \"%1\""_s.arg(v);
                return false;
            }
            o->server.resumeTimeoutMs = int(s * 1000);
        } else if (a == "--breaker-threshold"_L1 || a == "--breaker-cooldown"_L1 ||
                   a == "--recovery-budget"_L1 || a == "--ping-interval"_L1) {
            bool ok = false;
            const double n = v.toDouble(&ok);
            const bool threshold = a == "--breaker-threshold"_L1;
            if (!ok || !(n >= 0 && n <= MaxSeconds) ||
                (threshold && (n < 1 || n > 1'000'000 || n != double(int(n))))) {
                *error = u"%1 wants %2, got \"%3\""_s.arg(
                    a,
                    threshold ? u"a whole number, 1 to 1000000"_s
                              : u"seconds, 0 to %1"_s.arg(MaxSeconds),
                    v);
                return false;
            }
            if (threshold)
                o->server.breakerThreshold = int(n);
            else if (a == "--breaker-cooldown"_L1)
                o->server.breakerCooldownMs = int(n * 1000);
            else if (a == "--recovery-budget"_L1)
                o->server.recoveryBudgetMs = int(n * 1000);
            else
                o->server.pingIntervalMs = int(n * 1000);
        } else if (a == "--read-only"_L1) {
            o->server.toolReadOnlyOverrides.insert(v, true);
        } else if (a == "--write-capable"_L1) {
            o->server.toolReadOnlyOverrides.insert(v, false);
        } else if (a == "--transcript"_L1)
            o->transcriptPath = v;
        else if (a == "--history"_L1)
            o->historyPath = v;
        else if (a == "--log-level"_L1) {
            // The levels of logging/setLevel (RFC 5424's, as MCP names them).
            static const QStringList levels = {u"debug"_s,   u"info"_s,     u"notice"_s,
                                               u"warning"_s, u"error"_s,    u"critical"_s,
                                               u"alert"_s,   u"emergency"_s};
            if (!levels.contains(v)) {
                *error = u"--log-level wants one of %1, got \"%2\""_s.arg(levels.join(u", "_s), v);
                return false;
            }
            o->logLevel = v;
        } else if (a == "--root"_L1)
            o->policy.roots.append(v);
        else if (a == "--sampling-text"_L1)
            o->policy.samplingText = v;
        else if (a == "--sampling-model"_L1)
            o->policy.samplingModel = v;
        else if (a == "--elicitation"_L1 || a == "--url-elicitation"_L1) {
            const QStringList allowed = a == "--elicitation"_L1
                                            ? QStringList{u"accept"_s, u"decline"_s, u"cancel"_s}
                                            : QStringList{u"accept"_s, u"decline"_s};
            if (!allowed.contains(v)) {
                *error = u"%1 wants one of %2"_s.arg(a, allowed.join(u", "_s));
                return false;
            }
            (a == "--elicitation"_L1 ? o->policy.elicitationAction
                                     : o->policy.urlElicitationAction) = v;
        } else if (a == "--elicitation-content"_L1) {
            if (!jsonObject(v, a, &o->policy.elicitationContent))
                return false;
        } else {
            *error = u"unknown option %1"_s.arg(a);
            return false;
        }
    }

    // The official conformance harness runs `sh -c "<command> <serverUrl>"`: the URL comes
    // last, as the command's argument.
    if (o->command.value(0) == "conformance-client"_L1) {
        if (o->command.size() != 2 || !o->server.url.isEmpty() || !o->server.program.isEmpty() ||
            !configPath.isEmpty()) {
            *error = u"usage: sonde-cli [OPTIONS] conformance-client URL"_s;
            return false;
        }
        o->server.url = QUrl(o->command[1], QUrl::StrictMode);
        o->policy.elicitationAction = u"accept"_s; // the scenarios check accepted defaults
        // No person and no browser: the authorize URL is followed (its redirect read), the
        // credentials come from the harness's context, and Sonde's client id metadata
        // document is the URL the suite expects (docs/auth.md).
        if (!agent)
            agent = ServerConfig::Auth::Agent::Headless;
        applyConformanceCredentials(&authFlags);
        // The harness says which revision a scenario tests; without it (suites before
        // 2026-07-28) the client speaks the handshake revision the scenario expects.
        if (!era) {
            const QString version = qEnvironmentVariable("MCP_CONFORMANCE_PROTOCOL_VERSION");
            era = Rev20260728::isProtocolVersion(version) ? ServerConfig::Era::Rev20260728
                                                          : ServerConfig::Era::Initialize;
        }
    }
    const ServerConfig flags = o->server;
    const int connections =
        int(!flags.program.isEmpty()) + int(!flags.url.isEmpty()) + int(!configPath.isEmpty());
    if (connections != 1) {
        *error = connections == 0 ? u"say which server: --command, --url or --config"_s
                                  : u"use only one of --command, --url and --config"_s;
        return false;
    }
    if (!configPath.isEmpty()) {
        // No input provider: nobody can type a ${input:...} in, so naming it is the answer.
        const ServerConfigFile::Result r = ServerConfigFile::load(configPath);
        if (r.error.isError()) {
            *error = r.error.message();
            return false;
        }
        const QStringList names = r.servers.keys() + r.unresolved.keys();
        if (serverName.isEmpty() && names.size() == 1)
            serverName = names.constFirst();
        if (r.unresolved.contains(serverName)) {
            *error = r.unresolved.value(serverName).message();
            return false;
        }
        if (!r.servers.contains(serverName)) {
            QStringList sorted = names;
            sorted.sort();
            *error = u"%1: no server named \"%2\" (has: %3)"_s.arg(configPath, serverName,
                                                                   sorted.join(u", "_s));
            return false;
        }
        ServerConfig c = r.servers.value(serverName);
        c.requestTimeoutMs = flags.requestTimeoutMs;
        c.initializeTimeoutMs = flags.initializeTimeoutMs;
        c.shutdownGraceMs = flags.shutdownGraceMs;
        c.maxFrameBytes = flags.maxFrameBytes;
        c.breakerThreshold = flags.breakerThreshold;
        c.breakerCooldownMs = flags.breakerCooldownMs;
        c.recoveryBudgetMs = flags.recoveryBudgetMs;
        c.pingIntervalMs = flags.pingIntervalMs;
        c.resumeTimeoutMs = flags.resumeTimeoutMs;
        c.recoveryProfile = flags.recoveryProfile;
        c.toolReadOnlyOverrides = flags.toolReadOnlyOverrides;
        o->server = c;
    } else if (!flags.url.isEmpty()) {
        if (!flags.url.isValid() ||
            (flags.url.scheme() != "http"_L1 && flags.url.scheme() != "https"_L1)) {
            *error = u"--url must be an http or https URL"_s;
            return false;
        }
        o->server.route = ServerConfig::Route::StreamableHttp;
        // Host and port: two servers on one host are two servers (the history, its exports
        // and the tokens kept for each tell them apart by this name).
        o->server.name = flags.url.port() > 0
                             ? u"%1:%2"_s.arg(flags.url.host()).arg(flags.url.port())
                             : flags.url.host();
    } else {
        o->server.name = QFileInfo(flags.program).fileName();
    }
    if (era)
        o->server.era = *era;
    // The flags win over a config entry's "auth", field by field.
    ServerConfig::Auth &auth = o->server.auth;
    if (!authFlags.clientId.isEmpty())
        auth.clientId = authFlags.clientId;
    if (!authFlags.clientSecret.isEmpty())
        auth.clientSecret = authFlags.clientSecret;
    if (!authFlags.scope.isEmpty())
        auth.scope = authFlags.scope;
    if (!authFlags.clientMetadataUrl.isEmpty())
        auth.clientMetadataUrl = authFlags.clientMetadataUrl;
    // A terminal has no browser of Sonde's to open: the URL is printed (and opened with
    // xdg-open when there is a display), the loopback listener waits for the redirect.
    auth.agent = agent.value_or(ServerConfig::Auth::Agent::NoBrowser);
    if (noAuth)
        auth.enabled = false;
    if (o->command.value(0) == "auth"_L1) {
        static const QStringList actions = {u"login"_s, u"status"_s, u"logout"_s};
        if (o->command.size() != 2 || !actions.contains(o->command[1])) {
            *error = u"usage: sonde-cli --url URL [OPTIONS] auth login|status|logout"_s;
            return false;
        }
        if (o->server.route == ServerConfig::Route::Stdio) {
            *error = u"auth works with HTTP servers (--url or a config entry with a url): a "
                     u"stdio server gets its credentials from its environment"_s;
            return false;
        }
    }
    // One request and out: nothing would read the capabilities or listen.
    static const QStringList oneShots = {u"ping"_s, u"tools"_s, u"resources"_s, u"prompts"_s};
    o->server.discoverBesideCalls = !oneShots.contains(o->command.value(0));
    if (!graceGiven)
        o->server.shutdownGraceMs = 100; // a one-shot call must not pay the engine's 500 ms
    if (o->command.isEmpty()) {
        *error = u"no command given"_s;
        return false;
    }
    // The whole command is checked before anything starts: a usage error must not cost a
    // server start (or leave one behind) before it is said.
    *error = commandError(o->command);
    return error->isEmpty();
}

QString CliOptions::commandError(const QStringList &c)
{
    const QString verb = c.value(0);
    const QString sub = c.value(1);
    auto jsonObjectArg = [](const QString &text) -> QString {
        if (text.isEmpty())
            return {};
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &pe);
        if (pe.error != QJsonParseError::NoError)
            return u"arguments must be a JSON object: %1"_s.arg(pe.errorString());
        if (!d.isObject())
            return u"arguments must be a JSON object, got another JSON type"_s;
        return {};
    };
    auto exactly = [&](qsizetype n) -> QString {
        return c.size() == n
                   ? QString()
                   : u"\"%1\" takes %2 word(s) after it, got: %3"_s.arg(c.mid(0, 2).join(u' '))
                         .arg(n - std::min<qsizetype>(2, n))
                         .arg(c.join(u' '));
    };
    if (verb == "info"_L1 || verb == "ping"_L1)
        return c.size() == 1 ? QString()
                             : u"\"%1\" takes nothing after it, got: %2"_s.arg(verb, c.join(u' '));
    if ((verb == "tools"_L1 && sub == "list"_L1) ||
        (verb == "resources"_L1 && (sub == "list"_L1 || sub == "templates"_L1)) ||
        (verb == "prompts"_L1 && sub == "list"_L1))
        return exactly(2);
    if ((verb == "tools"_L1 && sub == "call"_L1) || (verb == "prompts"_L1 && sub == "get"_L1)) {
        if (c.size() < 3 || c.size() > 4)
            return u"usage: %1 %2 NAME [JSON]"_s.arg(verb, sub);
        return jsonObjectArg(c.value(3));
    }
    if (verb == "resources"_L1 && sub == "read"_L1)
        return c.size() == 3 ? QString() : u"usage: resources read URI"_s;
    if (verb == "exec"_L1)
        return c.size() <= 2 ? QString() : u"usage: exec [FILE|-]"_s;
    if (verb == "auth"_L1 || verb == "conformance-client"_L1)
        return {}; // checked above
    static const QStringList known = {u"info"_s,    u"ping"_s, u"tools"_s, u"resources"_s,
                                      u"prompts"_s, u"exec"_s, u"auth"_s,  u"conformance-client"_s};
    if (!known.contains(verb))
        return u"unknown command \"%1\""_s.arg(verb);
    return u"incomplete or unknown command: %1"_s.arg(c.join(u' '));
}

} // namespace Sonde

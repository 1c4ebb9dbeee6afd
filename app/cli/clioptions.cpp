// SPDX-License-Identifier: MIT
#include "clioptions.h"

#include "clistepparser.h"
#include "doctor/doctorcheck.h"
#include "doctor/doctorformats.h"
#include "protocol/rev20260728.h"
#include "util/commandline.h"

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
          | doctor [--format text|json|junit|sarif] [--out FILE] [--only CHECK,...]
              [--allow-writes]   (what the server does wrong, with the spec's sentence;
              exit 0 clean, 1 an error finding, 2 unreachable; docs/doctor.md)
          | run COLLECTION.json [--junit OUT.xml] [--auth-agent A]   (a saved collection,
            docs/collections.md; its "server" replaces CONNECTION)
   or:    sonde-cli proxy [PROXY OPTIONS] -- COMMAND [ARG...]   (in a client's config in
            place of its stdio server: relays both ways unchanged, exits as the server does)
          | proxy [PROXY OPTIONS] --listen ADDR:PORT --target URL [--allow-remote]   (an
            HTTP reverse proxy the client's url points at; docs/proxy.md)
          | proxy wrap --config FILE --server NAME [--port N] [--control SOCK] [--yes]
          | proxy unwrap --config FILE --server NAME [--yes]   (a client's config entry
            through the proxy, and back byte for byte)
          | proxy wrapped --config FILE
PROXY OPTIONS: --control SOCK (faults and verdicts: sonde-cli proxy-control SOCK)
          --verdict-window MS (default 30000: how long a client has to recover)
          --history DB (default: the window's history)  --no-history
   or:    sonde-cli proxy-control SOCK   (JSON lines in, one answer line each: fault,
            verdict, verdicts, status)
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

    // The table: each option with what it does to the options, or why its value is refused.
    CommandLine line;
    line.addHelpOption();
    line.addVersionOption();
    line.addFlag(u"--quiet"_s, [o] { o->quiet = true; });
    line.addFlag(u"--show-secrets"_s, [o] { o->showSecrets = true; });
    line.addFlag(u"--no-browser"_s, [&agent] { agent = ServerConfig::Auth::Agent::NoBrowser; });
    line.addFlag(u"--no-auth"_s, [&noAuth] { noAuth = true; });
    using Set = std::function<QString(const QString &)>;
    auto option = [&line](const QString &name, Set set) { line.addValueOption(name, set); };
    auto text = [](QString *field) -> Set {
        return [field](const QString &v) {
            *field = v;
            return QString();
        };
    };
    option(u"--command"_s, text(&o->server.program));
    option(u"--arg"_s, [o](const QString &v) {
        o->server.arguments.append(v);
        return QString();
    });
    option(u"--env"_s, [o](const QString &v) {
        const qsizetype eq = v.indexOf(u'=');
        if (eq <= 0)
            return u"--env wants K=V, got \"%1\""_s.arg(v);
        o->server.environment.insert(v.left(eq), v.mid(eq + 1));
        return QString();
    });
    option(u"--cwd"_s, text(&o->server.workingDirectory));
    option(u"--url"_s, [o](const QString &v) {
        o->server.url = QUrl(v, QUrl::StrictMode);
        return QString();
    });
    option(u"--header"_s, [o](const QString &v) {
        const qsizetype colon = v.indexOf(u':');
        if (colon <= 0)
            return u"--header wants \"Name: value\", got \"%1\""_s.arg(v);
        o->server.headers.append(
            {v.left(colon).trimmed().toUtf8(), v.mid(colon + 1).trimmed().toUtf8()});
        return QString();
    });
    option(u"--config"_s, text(&configPath));
    option(u"--server"_s, text(&serverName));
    option(u"--timeout"_s, [o](const QString &v) {
        bool ok = false;
        const double s = v.toDouble(&ok);
        // Finite and at most a day: 1e9 or inf overflowed the milliseconds into "timed
        // out after 0 ms", and nan passed every comparison.
        if (!ok || !(s > 0 && s <= MaxSeconds))
            return u"--timeout wants seconds, 0 < S <= %1, got \"%2\""_s.arg(MaxSeconds).arg(v);
        o->server.requestTimeoutMs = int(s * 1000);
        o->server.initializeTimeoutMs = int(s * 1000);
        o->timeoutGiven = true;
        return QString();
    });
    option(u"--era"_s, [&era](const QString &v) {
        era = ServerConfig::eraFromName(v);
        return era ? QString() : u"--era wants auto, initialize or 2026-07-28, got \"%1\""_s.arg(v);
    });
    option(u"--shutdown-grace"_s, [o, &graceGiven](const QString &v) {
        bool ok = false;
        const int ms = v.toInt(&ok);
        if (!ok || ms < 0)
            return u"--shutdown-grace wants milliseconds, got \"%1\""_s.arg(v);
        o->server.shutdownGraceMs = ms;
        graceGiven = true;
        return QString();
    });
    option(u"--max-frame-mb"_s, [o](const QString &v) {
        bool ok = false;
        const double mb = v.toDouble(&ok);
        if (!ok || !(mb > 0 && mb <= 4096))
            return u"--max-frame-mb wants 0 < N <= 4096, got \"%1\""_s.arg(v);
        o->server.maxFrameBytes = qsizetype(mb * 1024 * 1024);
        return QString();
    });
    option(u"--breaker-threshold"_s, [o](const QString &v) {
        bool ok = false;
        const double n = v.toDouble(&ok);
        if (!ok || !(n >= 0 && n <= MaxSeconds) || n < 1 || n > 1'000'000 || n != double(int(n)))
            return u"--breaker-threshold wants a whole number, 1 to 1000000, got \"%1\""_s.arg(v);
        o->server.breakerThreshold = int(n);
        return QString();
    });
    // Seconds from 0 to a day, kept as milliseconds.
    auto seconds = [&option](const QString &name, int *ms) {
        option(name, [name, ms](const QString &v) {
            bool ok = false;
            const double n = v.toDouble(&ok);
            if (!ok || !(n >= 0 && n <= MaxSeconds))
                return u"%1 wants seconds, 0 to %2, got \"%3\""_s.arg(name).arg(MaxSeconds).arg(v);
            *ms = int(n * 1000);
            return QString();
        });
    };
    seconds(u"--breaker-cooldown"_s, &o->server.breakerCooldownMs);
    seconds(u"--recovery-budget"_s, &o->server.recoveryBudgetMs);
    seconds(u"--ping-interval"_s, &o->server.pingIntervalMs);
    option(u"--resume-timeout"_s, [o](const QString &v) {
        bool ok = false;
        const double s = v.toDouble(&ok);
        if (!ok || !(s > 0) || s > 3600)
            return u"--resume-timeout wants seconds, 0 < S <= 3600, got \"%1\""_s.arg(v);
        o->server.resumeTimeoutMs = int(s * 1000);
        return QString();
    });
    option(u"--recovery"_s, [o](const QString &v) {
        const std::optional<ServerConfig::RecoveryProfile> p =
            ServerConfig::recoveryProfileFromName(v);
        if (!p)
            return u"--recovery wants interactive or agent, got \"%1\""_s.arg(v);
        o->server.recoveryProfile = *p;
        return QString();
    });
    option(u"--read-only"_s, [o](const QString &v) {
        o->server.toolReadOnlyOverrides.insert(v, true);
        return QString();
    });
    option(u"--write-capable"_s, [o](const QString &v) {
        o->server.toolReadOnlyOverrides.insert(v, false);
        return QString();
    });
    option(u"--transcript"_s, text(&o->transcriptPath));
    option(u"--history"_s, text(&o->historyPath));
    option(u"--log-level"_s, [o](const QString &v) {
        // The levels of logging/setLevel (RFC 5424's, as MCP names them).
        static const QStringList levels = {u"debug"_s, u"info"_s,     u"notice"_s, u"warning"_s,
                                           u"error"_s, u"critical"_s, u"alert"_s,  u"emergency"_s};
        if (!levels.contains(v))
            return u"--log-level wants one of %1, got \"%2\""_s.arg(levels.join(u", "_s), v);
        o->logLevel = v;
        return QString();
    });
    option(u"--root"_s, [o](const QString &v) {
        o->policy.roots.append(v);
        return QString();
    });
    option(u"--sampling-text"_s, text(&o->policy.samplingText));
    option(u"--sampling-model"_s, text(&o->policy.samplingModel));
    option(u"--elicitation"_s, [o](const QString &v) {
        if (!QStringList{u"accept"_s, u"decline"_s, u"cancel"_s}.contains(v))
            return u"--elicitation wants one of accept, decline, cancel"_s;
        o->policy.elicitationAction = v;
        return QString();
    });
    option(u"--url-elicitation"_s, [o](const QString &v) {
        if (!QStringList{u"accept"_s, u"decline"_s}.contains(v))
            return u"--url-elicitation wants one of accept, decline"_s;
        o->policy.urlElicitationAction = v;
        return QString();
    });
    option(u"--elicitation-content"_s, [o](const QString &v) {
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(v.toUtf8(), &pe);
        if (pe.error != QJsonParseError::NoError || !d.isObject())
            return u"--elicitation-content must be a JSON object (%1)"_s.arg(
                pe.error != QJsonParseError::NoError ? pe.errorString()
                                                     : u"got another JSON type"_s);
        o->policy.elicitationContent = d.object();
        return QString();
    });
    option(u"--client-id"_s, text(&authFlags.clientId));
    option(u"--client-secret"_s, text(&authFlags.clientSecret));
    option(u"--scope"_s, [&authFlags](const QString &v) {
        authFlags.scope = v.simplified();
        return QString();
    });
    option(u"--client-metadata-url"_s, [&authFlags](const QString &v) {
        authFlags.clientMetadataUrl = QUrl(v, QUrl::StrictMode);
        if (authFlags.clientMetadataUrl.scheme() != "https"_L1 ||
            authFlags.clientMetadataUrl.path().isEmpty())
            return u"--client-metadata-url wants an https URL with a path (a CIMD client id), "
                   u"got \"%1\""_s.arg(v);
        return QString();
    });
    option(u"--auth-agent"_s, [&agent](const QString &v) {
        agent = ServerConfig::authAgentFromName(v);
        return agent ? QString()
                     : u"--auth-agent wants browser, no-browser or headless, got \"%1\""_s.arg(v);
    });
    option(u"--secrets-file"_s, text(&o->secretsFile));
    option(u"--format"_s, [o](const QString &v) {
        o->doctor.given = true;
        o->doctor.format = v;
        return DoctorFormats::formatFromName(v)
                   ? QString()
                   : u"--format wants text, json, junit or sarif, got \"%1\""_s.arg(v);
    });
    option(u"--out"_s, [o](const QString &v) {
        o->doctor.given = true;
        o->doctor.out = v;
        return QString();
    });
    option(u"--only"_s, [o](const QString &v) {
        o->doctor.given = true;
        for (const QString &id : v.split(u',', Qt::SkipEmptyParts)) {
            if (!DoctorCatalog::find(id.trimmed()))
                return u"--only: no check named \"%1\" (docs/doctor.md lists them)"_s.arg(
                    id.trimmed());
            o->doctor.only << id.trimmed();
        }
        return QString();
    });
    line.addFlag(u"--allow-writes"_s, [o] {
        o->doctor.given = true;
        o->doctor.allowWrites = true;
    });

    switch (line.parse(args)) {
    case CommandLine::Outcome::Parsed:
        break;
    case CommandLine::Outcome::Version:
        o->version = true;
        [[fallthrough]];
    case CommandLine::Outcome::Help:
        *error = QString();
        return false;
    case CommandLine::Outcome::Refused:
        // After the command, the command's words say where the stray option stood.
        *error = line.problem() == CommandLine::Problem::UnknownOption &&
                         !line.positionalArguments().isEmpty()
                     ? u"unknown option %1 after the command %2"_s.arg(
                           line.problemOption(), line.positionalArguments().join(u' '))
                     : line.errorText();
        return false;
    }
    o->command = line.positionalArguments();

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
    o->configPath = configPath;
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
    const QString verb = o->command.value(0);
    if (verb == "exec"_L1) {
        *error = o->command.size() <= 2 ? QString() : u"usage: exec [FILE|-]"_s;
        return error->isEmpty();
    }
    if (o->doctor.given && verb != "doctor"_L1) {
        *error = u"--format, --out, --only and --allow-writes belong to the doctor command"_s;
        return false;
    }
    if (verb == "doctor"_L1) {
        if (o->command.size() != 1) {
            *error = u"usage: sonde-cli CONNECTION doctor [--format text|json|junit|sarif] "
                     u"[--out FILE] [--only CHECK,...] [--allow-writes]"_s;
            return false;
        }
        if (!o->historyPath.isEmpty()) {
            *error = u"doctor records no history; --transcript keeps its traffic"_s;
            return false;
        }
        return true;
    }
    if (verb == "auth"_L1 || verb == "conformance-client"_L1)
        return true; // checked above
    o->step = CliStepParser::fromWords(o->command, error);
    return o->step.has_value();
}

void CliOptions::chooseSecretStore(
    QObject *context, std::function<void(const SecretStoreChooser::Choice &)> then) const
{
    SecretStoreChooser::Options options;
    options.encryptedFile = secretsFile;
    options.passphrase = qgetenv("SONDE_SECRETS_PASSPHRASE");
    auto *chooser = new SecretStoreChooser(options, context);
    QObject::connect(chooser, &SecretStoreChooser::chosen, context,
                     [chooser, then](const SecretStoreChooser::Choice &choice) {
                         chooser->deleteLater();
                         then(choice);
                     });
    chooser->choose();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
// sonde-demo-server: Sonde's built-in MCP server, over stdio (default) or Streamable HTTP
// (--http HOST:PORT; port 0 picks a free port, printed on stdout), speaking 2025-11-25,
// 2026-07-28 or both (--era); --auth makes the HTTP endpoint an OAuth-protected resource with
// its own authorization server on the same port.
#include "demohttpserver.h"
#include "demoserver.h"
#include "replaybook.h"
#include "stdiolinechannel.h"
#include "util/commandline.h"
#include "util/signalwatcher.h"
#include "util/version.h"

#include <QCoreApplication>

#include <cstdio>
#include <unistd.h>

using namespace Sonde;
using namespace Qt::StringLiterals;

static void logLine(const QString &line)
{
    std::fprintf(stderr, "%s\n", line.toLocal8Bit().constData());
    std::fflush(stderr);
}

struct Options
{
    DemoEra era = DemoEra::Both;
    int keepAliveMs = 15'000;
    bool auth = false;
    int tokenTtlSeconds = 3600;
};

static int serveHttp(QCoreApplication &app, const QString &spec,
                     const std::shared_ptr<DemoState> &state, const Options &options)
{
    const qsizetype colon = spec.lastIndexOf(u':');
    bool ok = false;
    const int port = spec.mid(colon + 1).toInt(&ok);
    const QHostAddress host(colon > 0 ? spec.left(colon) : u"127.0.0.1"_s);
    if (colon < 0 || !ok || port < 0 || port > 65535 || host.isNull()) {
        logLine(u"sonde-demo-server: --http wants HOST:PORT (e.g. 127.0.0.1:0), got \"%1\""_s.arg(
            spec));
        return 2;
    }
    DemoHttpServer server(state);
    server.setEra(options.era);
    server.setKeepAliveInterval(options.keepAliveMs);
    if (options.auth)
        server.enableAuthorization(qint64(options.tokenTtlSeconds) * 1000);
    QObject::connect(&server, &DemoHttpServer::logLine, &logLine);
    // Stopping ends each subscription with its graceful result before the streams close.
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::received, &app, [&server](int signo) {
        server.shutdown();
        QCoreApplication::exit(SignalWatcher::exitCodeFor(signo));
    });
    QString error;
    if (!server.listen(host, quint16(port), &error)) {
        logLine(u"sonde-demo-server: cannot listen on %1: %2"_s.arg(spec, error));
        return 2;
    }
    const QString url = server.endpointUrl();
    std::printf("%s\n", qPrintable(url));
    std::fflush(stdout);
    logLine(u"sonde-demo-server ready on %1%2"_s.arg(
        url,
        options.auth ? u" (OAuth: bearer tokens from its authorization server)"_s : QString()));
    return app.exec();
}

// The one usage text, for --help and every usage error.
static QString usage()
{
    return u"usage: sonde-demo-server [--http HOST:PORT] [--era initialize|2026-07-28|both] "
           u"[--state-file PATH] [--tools N] [--listen-keepalive MS] [--auth] "
           u"[--auth-token-ttl SECONDS] [--replay SESSION.jsonl] [--version]\n"
           "  --era picks the protocol revisions served: initialize (2025-11-25 and "
           "earlier, the handshake and sessions), 2026-07-28 (per-request _meta) or both "
           "(the default)\n"
           "  --state-file keeps the counter in PATH, so side effects can be counted across "
           "restarts\n"
           "  --tools N adds N generated tools after the built-in ones (tests at scale)\n"
           "  --listen-keepalive MS is how often an HTTP subscriptions/listen stream gets "
           "a ':' comment (default 15000)\n"
           "  --auth (with --http) makes /mcp an OAuth 2.1 protected resource: a bearer "
           "token from the authorization server on the same origin (metadata, /register, "
           "/authorize, /token) is needed; increment-counter needs scope mcp:write\n"
           "  --auth-token-ttl SECONDS is how long an access token lives (default 3600)\n"
           "  --replay SESSION.jsonl serves the answers recorded in a Sonde transcript "
           "(matched on method and params without _meta); -32601 for anything else"_s;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"sonde-demo-server"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));

    QString stateFile, http, replay;
    int generatedTools = 0;
    Options options;
    CommandLine line;
    line.addVersionOption();
    // No positional words: any is a usage error, as an unknown option is.
    line.setPositionalHandler([](const QString &) { return u"no positional arguments"_s; });
    auto text = [&line](const QString &name, QString *field) {
        line.addValueOption(name, [field](const QString &v) {
            *field = v;
            return QString();
        });
    };
    // A whole number from `low` to `high`, or `why`.
    auto number = [&line](const QString &name, int *field, int low, int high, const QString &why) {
        line.addValueOption(name, [=](const QString &v) {
            bool ok = false;
            *field = v.toInt(&ok);
            return ok && *field >= low && *field <= high ? QString() : why;
        });
    };
    text(u"--state-file"_s, &stateFile);
    text(u"--replay"_s, &replay);
    text(u"--http"_s, &http);
    number(u"--tools"_s, &generatedTools, 0, 100'000, u"--tools wants a count from 0 to 100000"_s);
    line.addValueOption(u"--era"_s, [&options](const QString &v) {
        const std::optional<DemoEra> era = DemoProtocol::parseEra(v);
        if (!era)
            return u"--era wants initialize, 2026-07-28 or both"_s;
        options.era = *era;
        return QString();
    });
    number(u"--listen-keepalive"_s, &options.keepAliveMs, 10, 3'600'000,
           u"--listen-keepalive wants milliseconds from 10 to 3600000"_s);
    line.addFlag(u"--auth"_s, [&options] { options.auth = true; });
    number(u"--auth-token-ttl"_s, &options.tokenTtlSeconds, 1, 86'400,
           u"--auth-token-ttl wants seconds from 1 to 86400"_s);
    switch (line.parse(app.arguments().mid(1))) {
    case CommandLine::Outcome::Parsed:
        break;
    case CommandLine::Outcome::Version:
        std::printf("%s\n", qPrintable(CommandLine::versionText()));
        return 0;
    case CommandLine::Outcome::Help: // not in the table: --help gets the usage, as any unknown
    case CommandLine::Outcome::Refused:
        // A refused value is said alone; anything else the usage answers.
        logLine(line.problem() == CommandLine::Problem::BadValue
                    ? u"sonde-demo-server: "_s + line.errorText()
                    : usage());
        return 2;
    }
    if (options.auth && http.isEmpty()) {
        logLine(u"sonde-demo-server: --auth needs --http (authorization is HTTP's)"_s);
        return 2;
    }
    const auto state = std::make_shared<DemoState>(stateFile);
    state->setGeneratedTools(generatedTools);
    if (!replay.isEmpty()) {
        auto book = std::make_shared<ReplayBook>();
        QString error;
        if (!book->load(replay, &error)) {
            logLine(u"sonde-demo-server: --replay: %1"_s.arg(error));
            return 2;
        }
        logLine(u"sonde-demo-server: replaying %1 (%2 recorded answers)"_s.arg(replay).arg(
            book->answerCount()));
        state->setReplay(std::move(book));
    }
    if (!http.isEmpty())
        return serveHttp(app, http, state, options);

    DemoServer server(state);
    server.setEra(options.era);
    StdioLineChannel channel;
    QObject::connect(&channel, &StdioLineChannel::frameReceived, &server, &DemoServer::handleFrame);
    QObject::connect(&server, &DemoServer::frameReady, &channel,
                     [&channel](const QByteArray &frame) { channel.write(frame); });
    QObject::connect(&server, &DemoServer::stderrLine, &logLine);
    QObject::connect(&server, &DemoServer::exitRequested, [](int code) {
        std::fflush(stdout);
        ::_exit(code);
    });
    // Over stdio a session is the process: dropping it means leaving.
    QObject::connect(&server, &DemoServer::sessionExpiryRequested, [] {
        std::fflush(stdout);
        ::_exit(4);
    });
    QObject::connect(&server, &DemoServer::connectionDropRequested, [] {
        std::fflush(stdout);
        ::_exit(4);
    });
    // The stdio spec's shutdown starts with the client closing our stdin: leave at once, so
    // clients never have to escalate to signals. Either way each subscription gets its
    // graceful result first (written synchronously, so it is out before we exit).
    QObject::connect(&channel, &StdioLineChannel::endOfInput, &app, [&server] {
        server.shutdown();
        QCoreApplication::quit();
    });
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::received, &app, [&server](int signo) {
        server.shutdown();
        QCoreApplication::exit(SignalWatcher::exitCodeFor(signo));
    });
    logLine(u"sonde-demo-server ready on stdio"_s);
    return app.exec();
}

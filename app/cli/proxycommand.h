// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

#include <QHostAddress>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace Sonde {

class HttpReverseProxy;
class ProxyControlServer;
class ProxyRecording;
class ProxySession;
class SteadyClock;
class StdioRelay;

// `sonde-cli proxy`: Sonde in a client's path (docs/proxy.md).
//   proxy [OPTIONS] -- COMMAND [ARG...]            the stdio relay (StdioRelay); its exit
//                                                   status is the server's
//   proxy [OPTIONS] --listen ADDR:PORT --target URL the HTTP reverse proxy (HttpReverseProxy)
// OPTIONS: --control SOCK (the control socket, ProxyControlServer), --verdict-window MS,
// --history DB (default: the window's history) or --no-history (ProxyRecording),
// --allow-remote (HTTP). Each verdict, once known, is also a line on stderr. SIGINT or
// SIGTERM ends it: the stdio server's input is closed and it is terminated; the status is
// then 128 + the proxy's signal.
class ProxyCommand : public CliCommand
{
    Q_OBJECT
public:
    struct Options
    {
        QStringList server; // stdio: program, then its arguments
        QHostAddress listenAddress;
        quint16 listenPort = 0;
        QUrl target; // HTTP
        bool allowRemote = false;
        QString control;
        qint64 verdictWindowMs = 30'000;
        QString history; // empty: the window's (HistoryRecorder::defaultPath)
        bool noHistory = false;
        bool http() const { return target.isValid(); }
    };
    // `args`: what follows `proxy`. Null, with `error` set, for a command line it refuses.
    static std::unique_ptr<ProxyCommand> parse(const QStringList &args, QString *error);
    ~ProxyCommand() override;

    void start() override;
    void interrupt(int signo) override;
    int stopBoundMs() const override { return 5000; }

private:
    explicit ProxyCommand(Options options);
    void fail(const QString &error);
    void end(int status);
    // How the history names the server: the program (and its script, for an interpreter),
    // or the target's host and path.
    QString serverLabel() const;

    Options m_options;
    std::unique_ptr<SteadyClock> m_clock;
    std::unique_ptr<ProxySession> m_session;
    std::unique_ptr<StdioRelay> m_relay;
    std::unique_ptr<HttpReverseProxy> m_http;
    std::unique_ptr<ProxyControlServer> m_control;
    std::unique_ptr<ProxyRecording> m_recording;
    int m_signal = 0;
};

} // namespace Sonde

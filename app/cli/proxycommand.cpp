// SPDX-License-Identifier: MIT
#include "proxycommand.h"

#include "historyrecorder.h"
#include "proxy/httpreverseproxy.h"
#include "proxy/proxycontrolserver.h"
#include "proxy/proxyrecording.h"
#include "proxy/proxysession.h"
#include "proxy/stdiorelay.h"
#include "util/clock.h"

#include <QFileInfo>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

std::unique_ptr<ProxyCommand> ProxyCommand::parse(const QStringList &args, QString *error)
{
    Options o;
    const qsizetype dashes = args.indexOf(u"--"_s);
    const QStringList own = dashes < 0 ? args : args.mid(0, dashes);
    QString listen;
    for (qsizetype i = 0; i < own.size(); ++i) {
        const QString &a = own.at(i);
        auto value = [&](QString *out) {
            if (i + 1 >= own.size()) {
                *error = u"proxy: %1 needs a value"_s.arg(a);
                return false;
            }
            *out = own.at(++i);
            return true;
        };
        QString v;
        if (a == "--allow-remote"_L1) {
            o.allowRemote = true;
        } else if (a == "--listen"_L1) {
            if (!value(&listen))
                return nullptr;
        } else if (a == "--target"_L1) {
            if (!value(&v))
                return nullptr;
            o.target = QUrl(v, QUrl::StrictMode);
            if (!o.target.isValid() ||
                (o.target.scheme() != "http"_L1 && o.target.scheme() != "https"_L1) ||
                o.target.host().isEmpty()) {
                *error = u"proxy: --target %1: not an http:// or https:// URL"_s.arg(v);
                return nullptr;
            }
        } else if (a == "--history"_L1) {
            if (!value(&o.history))
                return nullptr;
        } else if (a == "--no-history"_L1) {
            o.noHistory = true;
        } else if (a == "--control"_L1) {
            if (!value(&o.control))
                return nullptr;
        } else if (a == "--verdict-window"_L1) {
            if (!value(&v))
                return nullptr;
            bool ok = false;
            o.verdictWindowMs = v.toLongLong(&ok);
            if (!ok || o.verdictWindowMs < 1 || o.verdictWindowMs > 3'600'000) {
                *error = u"proxy: --verdict-window %1: milliseconds, from 1 to 3600000"_s.arg(v);
                return nullptr;
            }
        } else if (!a.startsWith(u'-')) {
            *error = u"proxy: the server's command goes after -- (or --listen and --target for "
                     "HTTP)"_s;
            return nullptr;
        } else {
            *error = u"proxy: unknown option %1"_s.arg(a);
            return nullptr;
        }
    }
    if (dashes >= 0)
        o.server = args.mid(dashes + 1);
    if (o.noHistory && !o.history.isEmpty()) {
        *error = u"proxy: --history and --no-history say opposite things"_s;
        return nullptr;
    }
    if (o.target.isValid() != !listen.isEmpty()) {
        *error = u"proxy: --listen and --target go together (the HTTP proxy)"_s;
        return nullptr;
    }
    if (o.http()) {
        if (dashes >= 0) {
            *error = u"proxy: an HTTP proxy (--target) takes no server command after --"_s;
            return nullptr;
        }
        const qsizetype colon = listen.lastIndexOf(u':');
        bool ok = false;
        const uint port = colon < 0 ? 0 : listen.mid(colon + 1).toUInt(&ok);
        QString host = colon < 0 ? QString() : listen.left(colon);
        if (host.startsWith(u'[') && host.endsWith(u']'))
            host = host.mid(1, host.size() - 2);
        if (!ok || port > 65535 || !o.listenAddress.setAddress(host)) {
            *error = u"proxy: --listen %1: ADDRESS:PORT, e.g. 127.0.0.1:8931 (port 0: any "
                     "free port)"_s.arg(listen);
            return nullptr;
        }
        o.listenPort = quint16(port);
        return std::unique_ptr<ProxyCommand>(new ProxyCommand(std::move(o)));
    }
    if (o.allowRemote) {
        *error = u"proxy: --allow-remote is for the HTTP proxy (--listen)"_s;
        return nullptr;
    }
    if (dashes < 0) {
        *error = u"proxy: the server's command goes after -- (or --listen and --target for "
                 "HTTP)"_s;
        return nullptr;
    }
    if (o.server.isEmpty()) {
        *error = u"proxy: no server command after --"_s;
        return nullptr;
    }
    return std::unique_ptr<ProxyCommand>(new ProxyCommand(std::move(o)));
}

ProxyCommand::ProxyCommand(Options options) : m_options(std::move(options))
{
}

ProxyCommand::~ProxyCommand() = default;

void ProxyCommand::fail(const QString &error)
{
    std::fprintf(stderr, "sonde-cli proxy: %s\n", qPrintable(error));
    QTimer::singleShot(0, this, [this] { end(2); });
}

void ProxyCommand::start()
{
    m_clock = std::make_unique<SteadyClock>();
    m_session =
        std::make_unique<ProxySession>(m_options.http(), *m_clock, m_options.verdictWindowMs);
    // Each verdict as a line of its own: what a user watching the terminal wants to read.
    connect(&m_session->judge(), &ClientJudge::judged, this, [](const ProxyVerdict &v) {
        std::fprintf(stderr, "sonde-cli proxy: fault %d %s: %s: %s\n", v.faultId,
                     qPrintable(ProxyFault::info(v.kind).name),
                     qPrintable(ProxyVerdict::stateName(v.state)), qPrintable(v.summary));
    });
    if (!m_options.noHistory) {
        m_recording = std::make_unique<ProxyRecording>(*m_session, serverLabel());
        connect(m_recording.get(), &ProxyRecording::failed, this, [](const QString &why) {
            std::fprintf(stderr, "sonde-cli proxy: the history is not recorded: %s\n",
                         qPrintable(why));
        });
        m_recording->start(m_options.history.isEmpty() ? HistoryRecorder::defaultPath()
                                                       : m_options.history);
    }
    // Always in the user's runtime folder, where the window finds it; also at --control.
    m_control = std::make_unique<ProxyControlServer>(*m_session, serverLabel());
    QString error;
    const QString announce = ProxyControlServer::announcePath(&error);
    if (announce.isEmpty() || !m_control->listen(announce, &error))
        std::fprintf(stderr, "sonde-cli proxy: the window will not see this proxy: %s\n",
                     qPrintable(error));
    if (!m_options.control.isEmpty() && !m_control->listen(m_options.control, &error))
        return fail(u"--control: "_s + error);
    if (m_recording)
        connect(m_control.get(), &ProxyControlServer::historyTaken, m_recording.get(),
                &ProxyRecording::setPaused);
    if (m_options.http()) {
        m_http = std::make_unique<HttpReverseProxy>(m_options.target, *m_session);
        if (!m_http->listen(m_options.listenAddress, m_options.listenPort, m_options.allowRemote,
                            &error))
            return fail(error);
        // The line a script waits for: the URL to give the client.
        std::fprintf(
            stderr, "sonde-cli proxy: listening; point the client at %s (forwarding to %s)\n",
            qPrintable(m_http->clientUrl().toString()), qPrintable(m_options.target.toString()));
        return;
    }
    m_relay = std::make_unique<StdioRelay>(m_options.server.first(), m_options.server.mid(1),
                                           m_session.get());
    connect(m_relay.get(), &StdioRelay::finished, this, [this](int status, const QString &why) {
        if (!why.isEmpty() && !m_signal)
            std::fprintf(stderr, "sonde-cli proxy: %s\n", qPrintable(why));
        end(m_signal ? 128 + m_signal : status);
    });
    m_relay->start();
}

void ProxyCommand::end(int status)
{
    // What was seen reaches the history before the process ends.
    if (m_recording)
        m_recording->stop();
    Q_EMIT finished(status);
}

QString ProxyCommand::serverLabel() const
{
    if (m_options.http())
        return m_options.target.host() +
               (m_options.target.port() > 0 ? u':' + QString::number(m_options.target.port())
                                            : QString()) +
               m_options.target.path();
    const QString program = QFileInfo(m_options.server.first()).fileName();
    static const QStringList interpreters = {u"node"_s, u"python"_s, u"python3"_s, u"npx"_s,
                                             u"uvx"_s,  u"uv"_s,     u"deno"_s,    u"bun"_s};
    if (interpreters.contains(program)) {
        for (const QString &a : m_options.server.mid(1)) {
            if (!a.startsWith(u'-'))
                return program + u' ' + QFileInfo(a).fileName();
        }
    }
    return program;
}

void ProxyCommand::interrupt(int signo)
{
    m_signal = signo;
    if (m_relay) {
        m_relay->stop();
        return;
    }
    m_control.reset();
    m_http.reset();
    end(128 + signo);
}

} // namespace Sonde

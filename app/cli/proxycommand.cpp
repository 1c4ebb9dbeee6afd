// SPDX-License-Identifier: MIT
#include "proxycommand.h"

#include "proxy/stdiorelay.h"

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

std::unique_ptr<ProxyCommand> ProxyCommand::parse(const QStringList &args, QString *error)
{
    const qsizetype dashes = args.indexOf(u"--"_s);
    if (dashes != 0) {
        *error = dashes < 0 ? u"proxy: the server's command goes after --"_s
                            : u"proxy: unknown option %1"_s.arg(args.first());
        return nullptr;
    }
    if (args.size() < 2) {
        *error = u"proxy: no server command after --"_s;
        return nullptr;
    }
    return std::unique_ptr<ProxyCommand>(new ProxyCommand(args.mid(1)));
}

ProxyCommand::ProxyCommand(QStringList server) : m_server(std::move(server))
{
}

ProxyCommand::~ProxyCommand() = default;

void ProxyCommand::start()
{
    m_relay = std::make_unique<StdioRelay>(m_server.first(), m_server.mid(1));
    connect(m_relay.get(), &StdioRelay::finished, this, [this](int status, const QString &error) {
        if (!error.isEmpty() && !m_signal)
            std::fprintf(stderr, "sonde-cli proxy: %s\n", qPrintable(error));
        Q_EMIT finished(m_signal ? 128 + m_signal : status);
    });
    m_relay->start();
}

void ProxyCommand::interrupt(int signo)
{
    m_signal = signo;
    m_relay->stop();
}

} // namespace Sonde

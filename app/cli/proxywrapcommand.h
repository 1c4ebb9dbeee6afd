// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace Sonde {

// `sonde-cli proxy wrap|unwrap|wrapped --config FILE ...`: puts the proxy in a client's
// path by rewriting one entry of the client's config (ConfigWrapper), and takes it out
// again byte for byte. It shows the entry before and after and asks first; without a
// terminal it needs --yes. `wrapped` lists the entries and which run through the proxy.
class ProxyWrapCommand : public CliCommand
{
    Q_OBJECT
public:
    // `args`: what follows `proxy` (its first word is wrap, unwrap or wrapped). Null, with
    // `error` set, for a command line it refuses.
    static std::unique_ptr<ProxyWrapCommand> parse(const QStringList &args, QString *error);
    static bool handles(const QStringList &args);

    void start() override;
    void interrupt(int signo) override { Q_EMIT finished(128 + signo); }

private:
    ProxyWrapCommand() = default;
    int run();

    QString m_verb;
    QString m_config;
    QString m_server;
    QStringList m_proxyArgs;
    quint16 m_port = 0;
    bool m_yes = false;
};

} // namespace Sonde

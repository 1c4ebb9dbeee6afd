// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

#include <QStringList>

#include <memory>

namespace Sonde {

class StdioRelay;

// `sonde-cli proxy -- COMMAND [ARG...]`: the stdio relay between the client that runs it and
// the server it starts (StdioRelay). Its exit status is the server's; SIGINT or SIGTERM closes
// the server's input and terminates it, and the status is then 128 + the proxy's signal.
class ProxyCommand : public CliCommand
{
    Q_OBJECT
public:
    // `args`: what follows `proxy`. Null, with `error` set, for a command line it refuses.
    static std::unique_ptr<ProxyCommand> parse(const QStringList &args, QString *error);
    ~ProxyCommand() override;

    void start() override;
    void interrupt(int signo) override;
    int stopBoundMs() const override { return 5000; }

private:
    explicit ProxyCommand(QStringList server);

    QStringList m_server; // program, then its arguments
    std::unique_ptr<StdioRelay> m_relay;
    int m_signal = 0;
};

} // namespace Sonde

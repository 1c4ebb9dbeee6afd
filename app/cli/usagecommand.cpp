// SPDX-License-Identifier: MIT
#include "usagecommand.h"

#include "clioutput.h"
#include "util/signalwatcher.h"

#include <cstdio>

namespace Sonde {

UsageCommand::UsageCommand(Kind kind, QString text, QObject *parent)
    : CliCommand(parent), m_kind(kind), m_text(std::move(text))
{
}

void UsageCommand::start()
{
    if (m_kind == Kind::Refused) {
        Q_EMIT finished(CliOutput::usageError(m_text));
        return;
    }
    std::fputs(qPrintable(m_text), stdout);
    std::fflush(stdout);
    Q_EMIT finished(0);
}

void UsageCommand::interrupt(int signo)
{
    // Nothing to close: it finishes in start(), so this is never reached in practice.
    Q_EMIT finished(SignalWatcher::exitCodeFor(signo));
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "clicommand.h"

#include "util/signalwatcher.h"

#include <csignal>

using namespace Qt::StringLiterals;

namespace Sonde {

QString CliCommand::signalName(int signo)
{
    return signo == SIGINT    ? u"SIGINT"_s
           : signo == SIGTERM ? u"SIGTERM"_s
                              : u"signal %1"_s.arg(signo);
}

void CliCommand::abandon(int signo)
{
    Q_EMIT finished(SignalWatcher::exitCodeFor(signo));
}

} // namespace Sonde

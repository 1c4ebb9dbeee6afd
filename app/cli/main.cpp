// SPDX-License-Identifier: MIT
// sonde-cli: the headless front end on the same core as the GUI, for scripts and CI.
#include "clicommand.h"
#include "clidispatcher.h"
#include "util/memorypolicy.h"
#include "util/version.h"

#include <QCoreApplication>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    // Started with stdin closed (`<&-`), the first descriptor Qt opens would become fd 0 and
    // `exec -` would read Qt's own event pipe: give fd 0 an empty input first.
    if (::fcntl(0, F_GETFD) < 0 && errno == EBADF)
        ::open("/dev/null", O_RDONLY);
    Sonde::MemoryPolicy::returnLargeBlocksWhenFreed();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"sonde-cli"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));

    const std::unique_ptr<Sonde::CliCommand> command =
        Sonde::CliDispatcher::commandFor(app.arguments().mid(1));
    return Sonde::CliDispatcher::exec(*command);
}

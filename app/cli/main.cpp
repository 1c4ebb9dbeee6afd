// SPDX-License-Identifier: MIT
// sonde-cli: the headless front end on the same core as the GUI, for scripts and CI.
#include "clirunner.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sonde-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    Sonde::CliOptions options;
    QString error;
    if (!Sonde::CliOptions::parse(app.arguments().mid(1), &options, &error)) {
        if (error.isEmpty()) {
            std::fputs(qPrintable(Sonde::CliOptions::usage()), stdout);
            return 0;
        }
        std::fprintf(stderr, "sonde-cli: %s\n%s", qPrintable(error), qPrintable(Sonde::CliOptions::usage()));
        return 2;
    }
    Sonde::CliRunner runner(options);
    QObject::connect(&runner, &Sonde::CliRunner::finished, &app, [](int code) { QCoreApplication::exit(code); });
    runner.start();
    return app.exec();
}

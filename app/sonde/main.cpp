// SPDX-License-Identifier: MIT
// sonde: the desktop inspector. Wiring only: the core host, the window, the default server.
#include "engine/corehost.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sonde"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sonde, an inspector for MCP servers"));
    parser.addHelpOption();
    parser.addVersionOption();
    // For documentation and visual checks on machines without a screen grabber.
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the window after DELAY ms, then quit."),
                                        QStringLiteral("file"));
    const QCommandLineOption delay(QStringLiteral("screenshot-delay"), QStringLiteral("Delay in ms (default 1500)."),
                                   QStringLiteral("ms"), QStringLiteral("1500"));
    parser.addOption(screenshot);
    parser.addOption(delay);
    parser.process(app);

    Sonde::CoreHost host;
    Sonde::MainWindow window(host);
    window.show();

    // With no configuration the built-in demo server is there and connected, so a new
    // user sees a real session at once. It ships next to this executable.
    Sonde::ServerConfig demo;
    demo.name = QStringLiteral("demo");
    demo.program = QDir(QApplication::applicationDirPath()).filePath(QStringLiteral(SONDE_DEMO_SERVER_NAME));
    host.addServer(demo);

    if (parser.isSet(screenshot)) {
        QTimer::singleShot(parser.value(delay).toInt(), &window, [&window, path = parser.value(screenshot)] {
            window.grab().save(path);
            QApplication::quit();
        });
    }
    QObject::connect(&app, &QApplication::aboutToQuit, &host, [&host] { host.shutdown(); });
    return app.exec();
}

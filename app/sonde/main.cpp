// SPDX-License-Identifier: MIT
// sonde: the desktop inspector. Wiring only: the core host, the window, the default server.
#include "engine/corehost.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sonde"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sonde, an inspector for MCP servers"));
    parser.addHelpOption();
    parser.addVersionOption();
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

    QObject::connect(&app, &QApplication::aboutToQuit, &host, [&host] { host.shutdown(); });
    return app.exec();
}

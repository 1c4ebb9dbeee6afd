// SPDX-License-Identifier: MIT
// sonde-demo-server: Sonde's built-in MCP server over stdio (HTTP comes with the HTTP issue).
#include "demoserver.h"
#include "stdiolinechannel.h"

#include <QCoreApplication>

#include <cstdio>
#include <unistd.h>

using namespace Sonde;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sonde-demo-server"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    DemoServer server;
    StdioLineChannel channel;
    QObject::connect(&channel, &StdioLineChannel::frameReceived, &server, &DemoServer::handleFrame);
    QObject::connect(&server, &DemoServer::frameReady, &channel, &StdioLineChannel::write);
    QObject::connect(&server, &DemoServer::stderrLine, [](const QString &line) {
        std::fprintf(stderr, "%s\n", line.toLocal8Bit().constData());
        std::fflush(stderr);
    });
    QObject::connect(&server, &DemoServer::exitRequested, [](int code) {
        std::fflush(stdout);
        ::_exit(code);
    });
    // The stdio spec's shutdown starts with the client closing our stdin: leave at once, so
    // clients never have to escalate to signals.
    QObject::connect(&channel, &StdioLineChannel::endOfInput, &app, &QCoreApplication::quit);
    std::fprintf(stderr, "sonde-demo-server ready on stdio\n");
    std::fflush(stderr);
    return app.exec();
}

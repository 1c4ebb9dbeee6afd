// SPDX-License-Identifier: MIT
// sonde-bench-qnam-oneshot URL BODY: the least a Qt program can do for a one-shot tools/call
// in 2026-07-28: one QCoreApplication, one QNetworkAccessManager, one POST with the headers
// the revision asks for, the answer read, exit. No engine, no thread of its own, no options.
// sonde-bench-http runs it beside sonde-cli and curl: the part of sonde-cli's cold time that
// is Qt's own (loading Qt Core and Network, QNAM's HTTP thread) and not Sonde's.
#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: sonde-bench-qnam-oneshot URL BODY\n");
        return 2;
    }
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(QString::fromLocal8Bit(argv[1])));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    request.setRawHeader("MCP-Protocol-Version", "2026-07-28");
    request.setRawHeader("Mcp-Method", "tools/call");
    request.setRawHeader("Mcp-Name", "echo");
    QNetworkReply *reply = nam.post(request, QByteArray(argv[2]));
    int code = 1;
    QObject::connect(reply, &QNetworkReply::finished, &app, [&] {
        const QByteArray answer = reply->readAll();
        code = reply->error() == QNetworkReply::NoError && answer.contains("Echo: hi") ? 0 : 1;
        std::fwrite(answer.constData(), 1, size_t(answer.size()), stdout);
        app.quit();
    });
    app.exec();
    return code;
}

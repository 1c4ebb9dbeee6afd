// SPDX-License-Identifier: MIT
#pragma once
// What the integration tests share: the reference server and the demo server as HTTP
// processes on free loopback ports, and running sonde-cli without blocking the event loop.

#include "demohttpfixture.h"
#include "testpaths.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

namespace SondeTest {

using namespace Qt::StringLiterals;

inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// server-everything in one of its HTTP modes on a loopback port, for the length of a test.
class EverythingServer
{
public:
    explicit EverythingServer(const QString &mode) : m_mode(mode) {}
    ~EverythingServer()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    // `port` 0: a free one. Another port: that one (a restart of a server that stopped).
    bool start(quint16 port = 0)
    {
        m_port = port ? port : freePort();
        m_log.clear();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"PORT"_s, QString::number(m_port));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(u"node"_s, {u"--import"_s, QString::fromUtf8(SONDE_LOOPBACK_PRELOAD),
                                    QString::fromUtf8(SONDE_EVERYTHING_PATH), m_mode});
        if (!m_process.waitForStarted(10000))
            return false;
        QElapsedTimer t;
        t.start();
        // "listening on port N" (streamableHttp) or "running on port N" (sse)
        const QByteArray ready = "on port " + QByteArray::number(m_port);
        while (!m_log.contains(ready) && t.elapsed() < 15000) {
            m_process.waitForReadyRead(200);
            m_log += m_process.readAll();
        }
        return m_log.contains(ready);
    }
    QByteArray log()
    {
        m_process.waitForReadyRead(100);
        m_log += m_process.readAll();
        return m_log;
    }
    void stop()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    quint16 port() const { return m_port; }
    QString url(const QString &path) const
    {
        return u"http://127.0.0.1:%1%2"_s.arg(m_port).arg(path);
    }

private:
    QString m_mode;
    QProcess m_process;
    QByteArray m_log;
    quint16 m_port = 0;
};

// One raw HTTP exchange, to send what a well-behaved client never would.
// What came back on one connection: the complete responses (framed by Content-Length), in
// order, and whether the server closed the connection after them.
struct RawExchange
{
    QList<QByteArray> responses;
    bool closedByServer = false;
};

// Writes `request` (one or several pipelined requests) on a new connection and reads until
// `expected` complete responses are in and the server closes or goes quiet for 300 ms.
inline RawExchange rawHttpExchange(quint16 port, const QByteArray &request, int expected = 1)
{
    RawExchange x;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(3000))
        return x;
    socket.write(request);
    QByteArray buf;
    auto takeResponses = [&] {
        for (;;) {
            const qsizetype end = buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            qsizetype length = 0;
            for (const QByteArray &line : buf.left(end).split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buf.size() < end + 4 + length)
                return;
            x.responses.append(buf.left(end + 4 + length));
            buf.remove(0, end + 4 + length);
        }
    };
    while (x.responses.size() < expected || socket.state() == QAbstractSocket::ConnectedState) {
        if (!socket.waitForReadyRead(x.responses.size() < expected ? 3000 : 300))
            break;
        buf += socket.readAll();
        takeResponses();
    }
    buf += socket.readAll();
    takeResponses();
    x.closedByServer = socket.state() != QAbstractSocket::ConnectedState;
    return x;
}

inline QByteArray rawHttp(quint16 port, const QByteArray &request)
{
    return rawHttpExchange(port, request).responses.value(0);
}

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QList<QJsonObject> lines; // filled by callers that parse JSON lines
};

// Runs sonde-cli without blocking the event loop (the proxy lives on it).
// Runs a program to its end without blocking the event loop (a test's server may live on it).
inline Run runProgram(const QString &program, const QStringList &args, const QByteArray &input = {},
                      const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                      int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.write(input);
    p.closeWriteChannel();
    QSignalSpy finished(&p, &QProcess::finished);
    Run r;
    if (!finished.wait(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// sonde-cli; SONDE_TEST_CLI runs the tests against another build (say, the one before a fix).
// The suites that use this were written for the 2025-11-25 session semantics (expiry,
// resumption, DELETE), which the dual-era demo server still serves: they pin the legacy era
// unless they name one. The 2026-07-28 era has its own suites (tst_cli_rev20260728,
// tst_demoserver_rev20260728), which pass --era themselves.
inline QStringList withEra(const QStringList &args)
{
    return args.contains(u"--era"_s) ? args : QStringList{u"--era"_s, u"initialize"_s} + args;
}

inline Run cli(const QStringList &args, const QByteArray &input = {})
{
    return runProgram(qEnvironmentVariable("SONDE_TEST_CLI", QString::fromUtf8(SONDE_CLI_PATH)),
                      withEra(args), input);
}

inline QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &l : out.split('\n'))
        if (!l.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(l).object());
    return lines;
}

} // namespace SondeTest

// SPDX-License-Identifier: MIT
#pragma once
// What the proxy tests share: a child that speaks JSON lines (the SDK driver, sonde-cli
// exec), and `sonde-cli proxy` with its control socket.

#include "clifixtures.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <functional>

namespace SondeTest {

// Every proxy a test starts records into the window's history and announces itself in the
// runtime folder unless told otherwise: a test process points both at folders of its own
// (initTestCase), so no proxy of a test writes the user's history or shows in their window.
struct PrivateProxyFolders
{
    QTemporaryDir data;
    QTemporaryDir runtime;
    void apply()
    {
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        qputenv("XDG_RUNTIME_DIR", runtime.path().toUtf8());
    }
};

// A JSON-RPC POST to the proxy on `port`, written by hand with `headers` (each ending with
// CRLF) before the framing ones: what a client the SDKs would not be sends.
inline QByteArray rawPost(quint16 port, const QByteArray &headers, const QByteArray &body)
{
    return rawHttp(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers +
                             "Accept: application/json, text/event-stream\r\n"
                             "Content-Type: application/json\r\nContent-Length: " +
                             QByteArray::number(body.size()) + "\r\n\r\n" + body);
}

// A child process that answers JSON lines on stdout, one command at a time: the official
// SDK client through tests/fixtures/sdk-driver.mjs, or sonde-cli exec. Its "event" lines are
// kept apart from its answers.
class LineProcess
{
public:
    ~LineProcess()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    void start(const QString &program, const QStringList &args)
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process, [this] {
            m_buffer += m_process.readAllStandardOutput();
            for (qsizetype nl = m_buffer.indexOf('\n'); nl >= 0; nl = m_buffer.indexOf('\n')) {
                const QJsonObject o = QJsonDocument::fromJson(m_buffer.left(nl)).object();
                m_buffer.remove(0, nl + 1);
                (o.contains(u"event"_s) ? m_events : m_answers).append(o);
            }
        });
        m_process.start(program, args);
    }
    // The official SDK client, `sdk` "v1" or "v2" (v2 needs Node 20 or later: the Node 22
    // the conformance suite pins, on any machine), connected as `transport` ("--http",
    // "--sse", "--stdio") to `target`.
    void startSdk(const QString &sdk, const QString &transport, const QStringList &target)
    {
        const QString node = sdk == "v2"_L1 ? QString::fromUtf8(SONDE_NODE22_PATH) : u"node"_s;
        start(node,
              QStringList{QString::fromUtf8(SONDE_SDK_DRIVER_PATH), u"--sdk"_s, sdk, transport} +
                  target);
    }
    // Waits for an event line that `match` accepts.
    bool waitForEvent(const std::function<bool(const QJsonObject &)> &match, int timeoutMs = 20000)
    {
        return waitUntil(
            [&] {
                for (const QJsonObject &e : std::as_const(m_events))
                    if (match(e))
                        return true;
                return false;
            },
            timeoutMs);
    }
    bool waitForReady(int timeoutMs = 20000)
    {
        return waitForEvent([](const QJsonObject &e) { return e.value(u"event"_s) == "ready"_L1; },
                            timeoutMs);
    }
    // Sends one command line and returns its answer (empty after `timeoutMs`).
    QJsonObject ask(const QJsonObject &command, int timeoutMs = 20000)
    {
        const qsizetype before = m_answers.size();
        m_process.write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
        if (!waitUntil([&] { return m_answers.size() > before; }, timeoutMs))
            return {};
        return m_answers.at(before);
    }
    void closeInput() { m_process.closeWriteChannel(); }
    bool waitForExit(int timeoutMs = 20000)
    {
        return waitUntil([&] { return m_process.state() == QProcess::NotRunning; }, timeoutMs);
    }
    const QList<QJsonObject> &events() const { return m_events; }
    QByteArray stderrText() { return m_err += m_process.readAllStandardError(); }
    QProcess &process() { return m_process; }

private:
    bool waitUntil(const std::function<bool()> &done, int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (!done()) {
            if (t.elapsed() > timeoutMs || m_process.state() == QProcess::NotRunning) {
                QCoreApplication::processEvents();
                return done();
            }
            QSignalSpy spy(&m_process, &QProcess::readyReadStandardOutput);
            spy.wait(int(qMax<qint64>(1, qMin<qint64>(200, timeoutMs - t.elapsed()))));
        }
        return true;
    }

    QProcess m_process;
    QByteArray m_buffer;
    QByteArray m_err;
    QList<QJsonObject> m_events;
    QList<QJsonObject> m_answers;
};

// `sonde-cli proxy` as a child, with its control socket in a private folder.
class ProxyProcess
{
public:
    ~ProxyProcess()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    // The HTTP proxy on a free loopback port in front of `target`; false when it did not say
    // where it listens.
    bool startHttp(const QString &target, int verdictWindowMs = 1500)
    {
        m_process.start(QString::fromUtf8(SONDE_CLI_PATH),
                        {u"proxy"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--target"_s, target,
                         u"--control"_s, socket(), u"--verdict-window"_s,
                         QString::number(verdictWindowMs), u"--history"_s, history()});
        QElapsedTimer t;
        t.start();
        while (!m_err.contains("point the client at ") && t.elapsed() < 15000) {
            QSignalSpy spy(&m_process, &QProcess::readyReadStandardError);
            spy.wait(200);
            m_err += m_process.readAllStandardError();
        }
        const qsizetype at = m_err.indexOf("point the client at ");
        if (at < 0)
            return false;
        const qsizetype from = at + 20;
        m_url = QString::fromUtf8(m_err.mid(from, m_err.indexOf(' ', from) - from));
        return true;
    }
    QString socket() const { return m_dir.filePath(u"control.sock"_s); }
    QString history() const { return m_dir.filePath(u"history.sqlite"_s); }
    // SIGTERM, as a user's Ctrl-C: the proxy writes what it recorded and exits 143.
    int stop()
    {
        m_process.terminate();
        QSignalSpy finished(&m_process, &QProcess::finished);
        if (m_process.state() != QProcess::NotRunning && !finished.wait(10000))
            return -1;
        m_err += m_process.readAllStandardError();
        return m_process.exitCode();
    }
    QString url() const { return m_url; }
    qint64 pid() const { return m_process.processId(); }
    quint16 port() const { return quint16(QUrl(m_url).port()); }
    // Sends control lines through `sonde-cli proxy-control`, returns the answers.
    QList<QJsonObject> control(const QList<QJsonObject> &lines)
    {
        QByteArray input;
        for (const QJsonObject &l : lines)
            input += QJsonDocument(l).toJson(QJsonDocument::Compact) + '\n';
        const Run r =
            runProgram(QString::fromUtf8(SONDE_CLI_PATH), {u"proxy-control"_s, socket()}, input);
        return jsonLines(r.out);
    }
    QJsonObject fault(const QJsonObject &fault) { return control({fault}).value(0); }
    QJsonObject verdict(int id, int waitMs = 15000)
    {
        return control(
                   {QJsonObject{{u"op"_s, u"verdict"_s}, {u"id"_s, id}, {u"wait_ms"_s, waitMs}}})
            .value(0);
    }
    QByteArray stderrText() { return m_err += m_process.readAllStandardError(); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    QByteArray m_err;
    QString m_url;
};

} // namespace SondeTest

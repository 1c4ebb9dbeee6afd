// SPDX-License-Identifier: MIT
#pragma once

#include "testpaths.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace SondeTest {

using namespace Qt::StringLiterals;

// sonde-demo-server --http 127.0.0.1:0, which prints its URL on stdout; stopped with the
// test. For the integration tests and for the window's tests against a real HTTP server.
class DemoHttpServer
{
public:
    ~DemoHttpServer()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    // `stateFile`: the counter lives there, so a test reads side effects from the server's
    // own record instead of back through Sonde. `port` 0: a free one; another: that one (the
    // same server started again after kill()).
    bool start(const QString &stateFile = {}, quint16 port = 0)
    {
        QStringList args;
        if (!stateFile.isEmpty())
            args << u"--state-file"_s << stateFile;
        return startWith(args, port);
    }
    // With options of its own: {"--auth"} for the protected endpoint.
    bool startWith(const QStringList &options, quint16 port = 0)
    {
        m_process.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                        QStringList{u"--http"_s, u"127.0.0.1:%1"_s.arg(port)} + options);
        if (!m_process.waitForStarted(5000))
            return false;
        // The URL is its first line; a read can end in the middle of it.
        QElapsedTimer waited;
        waited.start();
        while (!m_process.canReadLine() && waited.elapsed() < 5000)
            m_process.waitForReadyRead(int(5000 - waited.elapsed()));
        m_url = QString::fromUtf8(m_process.readLine().trimmed());
        return m_url.startsWith("http://127.0.0.1:"_L1);
    }
    QString url() const { return m_url; }
    quint16 port() const { return quint16(QUrl(m_url).port()); }
    // SIGKILL: no goodbye, every connection reset, as a crash or `kill -9` leaves them.
    void kill()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    QByteArray log()
    {
        m_process.waitForReadyRead(100);
        m_log += m_process.readAllStandardError();
        return m_log;
    }

private:
    QProcess m_process;
    QString m_url;
    QByteArray m_log;
};

} // namespace SondeTest

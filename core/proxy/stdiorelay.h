// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

class QSocketNotifier;

namespace Sonde {

// `sonde-cli proxy -- COMMAND [ARG...]`, the stdio half (issue 31): what a client's config
// runs in place of its server. It starts the server as its child (program and arguments, no
// shell), and relays bytes unchanged: the client's input (this process's stdin) to the
// server's, the server's stdout to this process's stdout, its stderr to stderr, in the order
// they come, a line that is not JSON included. When the client closes its input the server's
// is closed; when the server ends, finished() carries its exit status (128 + the signal when
// one killed it), which is the proxy's. Neither side can make it hold more than a bound: a
// server that does not read has the client's input wait (MaxPendingBytes), and a client that
// does not read has the server's output wait in the write to stdout, as a pipe would.
// Recording what passes (through LineFramer, the one place that knows MCP's stdio framing)
// comes with the history. Thread: the main thread (it reads fd 0).
class StdioRelay : public QObject
{
    Q_OBJECT
public:
    StdioRelay(QString program, QStringList arguments, QObject *parent = nullptr);
    ~StdioRelay() override;

    // Starts the server, relaying to and from this process's stdin, stdout and stderr;
    // finished() with 127 and a message when it could not be started.
    void start();
    // Ends the server as a signal to the proxy would: its input closed, then SIGTERM.
    void stop();

    // The most of the client's input waiting for the server to read it before the proxy
    // stops reading more.
    static constexpr qint64 MaxPendingBytes = 4 * 1024 * 1024;

Q_SIGNALS:
    void finished(int exitStatus, const QString &error);

private:
    void readClient();
    void relayServerOutput();
    void relayServerError();
    void serverFinished(int code, QProcess::ExitStatus status);
    // Writes all of `bytes` to `fd`, waiting as a pipe makes it. A client that is gone ends
    // the proxy with SIGPIPE, as it would have ended the server the proxy stands in for.
    static void writeAll(int fd, const QByteArray &bytes);

    QString m_program;
    QStringList m_arguments;
    QProcess m_server;
    QSocketNotifier *m_input = nullptr;
    bool m_clientDone = false; // the client closed its input
    bool m_finished = false;
};

} // namespace Sonde

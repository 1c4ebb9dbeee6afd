// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/lineframer.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

class QSocketNotifier;
class QTimer;

namespace Sonde {

class ProxySession;
struct ProxyFault;

// `sonde-cli proxy -- COMMAND [ARG...]`, the stdio half (issue 31): what a client's config
// runs in place of its server. It starts the server as its child (program and arguments, no
// shell), and relays bytes unchanged: the client's input (this process's stdin) to the
// server's, the server's stdout to this process's stdout, its stderr to stderr, in the order
// they come, a line that is not JSON included. When the client closes its input the server's
// is closed; when the server ends, finished() carries its exit status (128 + the signal when
// one killed it), which is the proxy's. Neither side can make it hold more than a bound: a
// server that does not read has the client's input wait (MaxPendingBytes), and a client that
// does not read has the server's output wait in the write to stdout, as a pipe would.
// With a ProxySession, what passes is shown to it line by line (LineFramer, the one place
// that knows MCP's stdio framing, with a 4 MiB cap on what is looked at), and the faults it
// arms act here: kill-server, drop-response, corrupt-response, delay and notify. While none
// that acts on lines is armed, the server's output is written as it comes; while one is,
// each line is held until it is complete (a line over 4 MiB goes through as it is) so a
// response can be dropped, cut or held whole. Thread: the main thread (it reads fd 0).
class StdioRelay : public QObject
{
    Q_OBJECT
public:
    StdioRelay(QString program, QStringList arguments, ProxySession *session = nullptr,
               QObject *parent = nullptr);
    ~StdioRelay() override;

    // Starts the server, relaying to and from this process's stdin, stdout and stderr;
    // finished() with 127 and a message when it could not be started.
    void start();
    // Ends the server as a signal to the proxy would: its input closed, then SIGTERM.
    void stop();

    // The most of the client's input waiting for the server to read it before the proxy
    // stops reading more.
    static constexpr qint64 MaxPendingBytes = 4 * 1024 * 1024;
    // The longest line a fault can act on, and the most of a line the judge is shown.
    static constexpr qsizetype MaxHeldLineBytes = 4 * 1024 * 1024;

Q_SIGNALS:
    void finished(int exitStatus, const QString &error);

private:
    void readClient();
    void relayServerOutput();
    void relayServerError();
    void serverFinished(int code, QProcess::ExitStatus status);
    void act(int id, const ProxyFault &fault);
    // The server's output with a line fault armed, or behind a delay: whole lines, each one
    // checked against the faults.
    void relayLines();
    void writeLine(const QByteArray &line);
    void observeServer(const QByteArray &bytes);
    bool lineFaultArmed() const;
    // Writes all of `bytes` to `fd`, waiting as a pipe makes it. A client that is gone ends
    // the proxy with SIGPIPE, as it would have ended the server the proxy stands in for.
    static void writeAll(int fd, const QByteArray &bytes);

    QString m_program;
    QStringList m_arguments;
    QProcess m_server;
    QSocketNotifier *m_input = nullptr;
    bool m_clientDone = false; // the client closed its input
    bool m_finished = false;

    ProxySession *m_session = nullptr;
    LineFramer m_clientLines{MaxHeldLineBytes};
    LineFramer m_serverLines{MaxHeldLineBytes};
    QByteArray m_held;                 // server output waiting for a line end or a delay
    bool m_atLineStart = true;         // what the client got so far ends at a line end
    QTimer *m_delay = nullptr;         // a delayed answer: running while held
    bool m_releaseFirst = false;       // the held answer goes next, unchecked
    QList<QByteArray> m_notifications; // notify lines waiting for a line end
};

} // namespace Sonde

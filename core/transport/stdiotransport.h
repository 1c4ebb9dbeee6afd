// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/lineframer.h"
#include "transport/transport.h"

#include <QPointer>
#include <QProcess>

class QTimer;

namespace Sonde {

class Clock;

// The stdio route: a child process launched as program + arguments (never a shell), JSON
// frames as lines on its stdin/stdout, stderr captured line by line. Shutdown closes stdin,
// waits shutdownGraceMs, sends SIGTERM, waits terminateGraceMs, then SIGKILL: no waitFor*(),
// the engine's event loop keeps running. Thread: the engine's; the QProcess is created in
// open(), so it lives there too.
class StdioTransport final : public Transport
{
    Q_OBJECT
public:
    StdioTransport(const ServerConfig &config, const Clock &clock, QObject *parent = nullptr);
    ~StdioTransport() override;

    void open() override;
    void send(const QByteArray &frame) override;
    void close() override;
    bool isOpen() const override;
    QJsonObject details() const override;
    Error injectFault(const Fault &fault) override;

    qint64 pid() const { return m_pid; }

private:
    void onReadyReadStdout();
    void onReadyReadStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
    // A kill fault: the transport is closed now, not when the child is reaped.
    void declareKilled(const QString &when);
    void finish(const Error &reason);

    ServerConfig m_config;
    const Clock &m_clock;
    QPointer<QProcess> m_process;
    QTimer *m_shutdownTimer = nullptr;
    LineFramer m_stdout;
    LineFramer m_stderr;
    qint64 m_pid = 0;
    qint64 m_startedMs = 0;
    qint64 m_endedMs = 0;
    int m_exitCode = -1;
    int m_exitSignal = 0;
    bool m_closing = false;
    bool m_killOnNextRequest = false;
    bool m_finished = false;
    enum class ShutdownStage
    {
        None,
        StdinClosed,
        Terminated,
        Killed
    } m_stage = ShutdownStage::None;
};

} // namespace Sonde

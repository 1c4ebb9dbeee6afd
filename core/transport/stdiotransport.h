// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/lineframer.h"
#include "transport/processcontrol.h"
#include "transport/transport.h"

#include <QPointer>
#include <QProcess>

class QTimer;

namespace Sonde {

class Clock;

// The stdio route: a child process launched as program + arguments (never a shell), JSON
// frames as lines on its stdin/stdout, stderr captured line by line. Shutdown closes stdin,
// waits shutdownGraceMs, sends SIGTERM, waits terminateGraceMs, then SIGKILL on timers: the
// engine's event loop keeps running. The only waitFor* calls never block it: a zero-timeout
// flush after each write, and a reap in the destructor once no event loop is left to run.
// Thread: the engine's; the QProcess is created in open(), so it lives there too.
class StdioTransport final : public Transport, public ProcessControl
{
    Q_OBJECT
public:
    StdioTransport(const ServerConfig &config, const Clock &clock, QObject *parent = nullptr);
    ~StdioTransport() override;

    void open() override;
    void send(const QByteArray &frame) override;
    void close() override;
    bool isOpen() const override;
    TransportDetails details() const override;
    ProcessControl *processControl() override { return this; }

    qint64 pid() const { return m_pid; }
    qint64 processId() const override { return m_pid; }
    bool kill() override;
    void declareKilled(const Error &reason) override;

private:
    void onReadyReadStdout();
    void onReadyReadStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
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

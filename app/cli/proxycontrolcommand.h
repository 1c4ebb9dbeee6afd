// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

#include <QString>

#include <memory>

class QLocalSocket;

namespace Sonde {

class LineReader;

// `sonde-cli proxy-control SOCK`: the headless client of a running proxy's control socket
// (ProxyControlServer). Each line of stdin is sent as it is read, and each answer line is
// printed as it comes, in order; at the end of input it finishes once every line is
// answered. Exit status: 0 when every answer says "ok": true, 1 when one does not, 2 when
// the socket cannot be reached or closes with lines unanswered.
class ProxyControlCommand : public CliCommand
{
    Q_OBJECT
public:
    explicit ProxyControlCommand(QString socketPath);
    ~ProxyControlCommand() override;

    void start() override;
    void interrupt(int signo) override;

private:
    void send(const QByteArray &line);
    void readAnswers();
    void maybeFinish();
    void fail(const QString &why);

    QString m_path;
    QLocalSocket *m_socket = nullptr;
    std::unique_ptr<LineReader> m_input;
    QByteArray m_buffer;
    int m_unanswered = 0;
    bool m_inputDone = false;
    bool m_refused = false; // an answer said "ok": false
    bool m_done = false;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/lineframer.h"

#include <QObject>

class QSocketNotifier;

namespace Sonde {

// The demo server's side of stdio: reads newline-delimited frames from fd 0 without
// blocking the event loop (slow tools keep sending progress while input waits) and writes
// frames to fd 1. Emits endOfInput when the client closes stdin.
class StdioLineChannel : public QObject
{
    Q_OBJECT
public:
    explicit StdioLineChannel(QObject *parent = nullptr);
    void write(const QByteArray &frame);

Q_SIGNALS:
    void frameReceived(const QByteArray &frame);
    void endOfInput();

private:
    void onReadable();
    QSocketNotifier *m_notifier = nullptr;
    LineFramer m_framer;
};

} // namespace Sonde

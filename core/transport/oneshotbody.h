// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QIODevice>

namespace Sonde {

// A POST body that can be read once and never rewound. Qt's HTTP stack re-sends a request
// by itself when its connection closes before a response byte (reconnectAttemptsDefault in
// qhttpnetworkconnectionchannel.cpp), and it rewinds the body to do so. JSON-RPC requests
// are not idempotent (RFC 9110 §9.2.2): a tools/call the server ran and then dropped would
// run twice. With this body the rewind fails, so Qt fails the reply with ContentReSendError
// instead, and recovery decides what may be sent again. Not a QBuffer on purpose: Qt wraps a
// QBuffer in a device whose reset() always succeeds. Thread: the one that created it (the
// network manager reads it there); owned by its reply.
class OneShotBody final : public QIODevice
{
    Q_OBJECT
public:
    explicit OneShotBody(QByteArray data, QObject *parent = nullptr);

    bool isSequential() const override { return false; } // random access: Content-Length is known
    qint64 size() const override { return m_data.size(); }
    bool seek(qint64 pos) override;
    bool reset() override { return seek(0); }
    bool atEnd() const override { return pos() >= m_data.size(); }
    // How often Qt asked to rewind after reading (each one a re-send it wanted to make).
    int refusedRewinds() const { return m_refusedRewinds; }

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
    bool m_started = false;
    int m_refusedRewinds = 0;
};

} // namespace Sonde

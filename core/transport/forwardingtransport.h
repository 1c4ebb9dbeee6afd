// SPDX-License-Identifier: MIT
#pragma once

#include "transport/transport.h"

namespace Sonde {

// A transport that passes every call on to the one it stands in front of (`next`), for the
// transports that change only part of what goes through: FaultInjectingTransport and
// HttpFallbackTransport override what they change. setNext() relays the signals neither
// changes; each connects opened, frameReceived, requestFailed and closed itself. Thread: the
// engine's; `next` is a child of this transport.
class ForwardingTransport : public Transport
{
    Q_OBJECT
public:
    using Transport::Transport;

    void open() override { m_next->open(); }
    void send(const QByteArray &frame) override { m_next->send(frame); }
    void close() override { m_next->close(); }
    void abort() override { m_next->abort(); }
    bool canDrain() const override { return m_next->canDrain(); }
    void drain() override { m_next->drain(); }
    bool isOpen() const override { return m_next->isOpen(); }
    TransportDetails details() const override { return m_next->details(); }
    void setProtocolVersion(const QString &version) override
    {
        m_next->setProtocolVersion(version);
    }
    void setToolHeaders(const McpHeaders::ToolParams &params) override
    {
        m_next->setToolHeaders(params);
    }
    void abandon(const QJsonValue &id) override { m_next->abandon(id); }
    HttpControl *httpControl() override { return m_next->httpControl(); }
    ProcessControl *processControl() override { return m_next->processControl(); }

protected:
    Transport *next() const { return m_next; }
    // Takes `next` as a child; relays the signals that need no change of it.
    void setNext(Transport *next);

private:
    Transport *m_next = nullptr;
};

} // namespace Sonde

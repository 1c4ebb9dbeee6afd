// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/mcpheaders.h"
#include "values/lifecycledetails.h"
#include "values/recoveryvalues.h"
#include "values/transportdetails.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>

namespace Sonde {

class HttpControl;
class ProcessControl;

// Moves whole JSON-RPC frames between the engine and one server. Subclasses: StdioTransport
// (QProcess), HttpFallbackTransport (Streamable HTTP, else legacy HTTP+SSE) over
// StreamableHttpTransport and LegacySseTransport, and FaultInjectingTransport, the decorator
// every session talks through. Thread: created, used and destroyed on the engine's thread.
// Owned by its ServerSession (or by the transport that wraps it). Emits one frameReceived
// per frame, in arrival order.
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Transport() override;

    virtual void open() = 0;
    // Sends one compact JSON-RPC frame (no newline). Failures arrive as closed().
    virtual void send(const QByteArray &frame) = 0;
    // Starts a graceful shutdown; closed() follows (at once if already closed).
    virtual void close() = 0;
    // Tears down for a reconnect: no goodbyes owed to a session already known dead (HTTP
    // sends no DELETE). closed() follows.
    virtual void abort() { close(); }
    // For a reconnect where each request travels on its own (Streamable HTTP): stop taking
    // new frames and server streams, but let the requests already sent get their answers,
    // then emit closed(). An expired session answers each of them for itself (404: it never
    // ran), so nothing has to be guessed from a teardown. canDrain() is false where the route
    // cannot do this (stdio, legacy SSE: one channel carries every answer).
    virtual bool canDrain() const { return false; }
    virtual void drain() { abort(); }
    virtual bool isOpen() const = 0;
    // Route-specific facts for the session snapshot (pid, exit status, session id...). Its
    // route and routeReason, when set, say which transport was chosen and why.
    virtual TransportDetails details() const = 0;
    // The negotiated protocol version, for transports that must announce it (HTTP).
    virtual void setProtocolVersion(const QString &) {}
    // 2026-07-28 over HTTP: the tools whose parameters are mirrored into Mcp-Param-* headers
    // (from the last tools/list). Routes without headers ignore it.
    virtual void setToolHeaders(const McpHeaders::ToolParams &) {}
    // The session no longer waits for this request (timeout, cancel): stop its transfer.
    virtual void abandon(const QJsonValue &) {}
    // The narrow hooks faults use (FaultInjectingTransport); null where the route has none.
    virtual HttpControl *httpControl() { return nullptr; }
    virtual ProcessControl *processControl() { return nullptr; }

Q_SIGNALS:
    void opened();
    void frameReceived(const QByteArray &frame);
    // A frame that arrived but is not to be handled, only recorded: the request it answers
    // is failed with requestFailed instead (a fault replacing an answer).
    void frameWithheld(const QByteArray &frame);
    // A frame was dropped before parsing (e.g. over the size limit); the session goes on.
    void frameDropped(const QString &reason);
    void stderrLine(const QString &line);
    // Sending the request with this id failed (e.g. an HTTP error status): the error keeps
    // the status, the body and the session id the request carried.
    void requestFailed(const QJsonValue &id, const Sonde::Error &error);
    // The connection broke outside any request (e.g. the HTTP GET stream was refused for the
    // session): recovery decides what it means.
    void connectionLost(const Sonde::Error &error);
    // Something worth a line in the transcript (stream opened, resumed, fell back...).
    void lifecycleEvent(const Sonde::LifecycleDetails &details);
    // The transport is gone: `reason` says why (a clean close has kind None).
    void closed(const Sonde::Error &reason);

public:
    // The method of an outgoing frame and, for a request, its id (undefined otherwise), read
    // without parsing the frame: a call may carry megabytes of arguments.
    struct Outgoing
    {
        QJsonValue requestId;
        QString method;
    };
    static Outgoing outgoing(const QByteArray &frame);
    // Whether an incoming frame is the response to `id`, read from its envelope only (a
    // second full parse of a 50 MB answer would cost as much as the session's own).
    static bool answers(const QByteArray &frame, const QJsonValue &id);
};

} // namespace Sonde

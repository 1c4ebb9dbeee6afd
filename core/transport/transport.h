// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>

namespace Sonde {

// Moves whole JSON-RPC frames between the engine and one server. Subclasses: stdio
// (QProcess) now, HTTP later. Thread: created, used and destroyed on the engine's thread.
// Owned by its ServerSession. Emits one messageReceived per frame, in arrival order.
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
    virtual bool isOpen() const = 0;
    // Route-specific facts for the session snapshot (pid, exit status, session id...).
    virtual QJsonObject details() const = 0;

Q_SIGNALS:
    void opened();
    void frameReceived(const QByteArray &frame);
    // A frame was dropped before parsing (e.g. over the size limit); the session goes on.
    void frameDropped(const QString &reason);
    void stderrLine(const QString &line);
    // The transport is gone: `reason` says why (a clean close has kind None).
    void closed(const Sonde::Error &reason);
};

} // namespace Sonde

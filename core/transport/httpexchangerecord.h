// SPDX-License-Identifier: MIT
#pragma once

#include "values/lifecycledetails.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>

class QNetworkReply;

namespace Sonde {

struct SseEvent;

// What one HTTP exchange of a route was, for the transcript's "http-exchange" event (and so
// for HAR): method, URL, the request's headers and body, the status and response headers,
// when the first byte came and when it ended (microseconds from the start, on a monotonic
// timer: the event itself carries the clock's time of the end), the bytes received, and for
// an SSE answer each frame. Credentials in headers are masked here, before the event exists
// (Authorization, cookies, any header whose name says it is a secret); the session id is
// kept for the exports to mask or not. Bounded: bodies past MaxBodyBytes and frames past
// MaxSseFrames are counted, not kept. A value in the route's reply entry; the engine's thread.
class HttpExchangeRecord
{
public:
    static constexpr qsizetype MaxBodyBytes = 64 * 1024;
    static constexpr int MaxSseFrames = 1000;

    void begin(const QNetworkReply *reply, const QByteArray &body);
    // The headers came: the status and response headers are read once, with the time.
    void answered(const QNetworkReply *reply);
    // Each of these does nothing for a record that was never begun (recording is off).
    void received(qsizetype bytes) { m_bytes += bytes; }
    void addSseEvent(const SseEvent &event);
    bool isStarted() const { return m_timer.isValid(); }
    // The details of the event, read when the reply finished; `body`: a non-SSE answer.
    LifecycleDetails::HttpExchange finish(const QNetworkReply *reply, const QByteArray &body);

    static bool isCredentialHeader(const QByteArray &name);

private:
    QElapsedTimer m_timer;
    LifecycleDetails::HttpExchange m_details;
    QList<LifecycleDetails::HttpExchange::SseFrame> m_sse;
    qint64 m_bytes = 0;
    int m_sseDropped = 0;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/limits.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// One dispatched server-sent event.
struct SseEvent
{
    QString type = QStringLiteral("message"); // "event:" field, "message" when absent
    QByteArray data;                          // "data:" lines joined with LF
    QString id;                               // the last event id in force at dispatch
};

// An incremental text/event-stream parser, exact to the WHATWG rules: input may be split at
// any byte; CRLF, LF and CR all end lines (a CR at the end of one read and an LF at the start
// of the next are one line end); comments; multi-line data; id (ignored when it holds NUL);
// retry (digits only). As in the standard, a block without any data line dispatches nothing,
// while "data:" with an empty value dispatches an event with empty data; either way its id
// becomes the last event id (MCP servers prime streams that way; the HTTP transport skips
// empty-data events).
// An event whose bytes (its lines, field names included) go over the frame limit
// (Limits::DefaultMaxFrameBytes unless the owner sets another) is dropped whole, up to the
// blank line that ends it, fields included (the id of an event never received must not
// become the resumption point); it is counted, and the next event is parsed as usual.
// Where the reads end never changes what is dispatched or dropped.
// Thread: any, one at a time.
class SseParser
{
public:
    explicit SseParser(qsizetype maxEventBytes = Limits::DefaultMaxFrameBytes)
        : m_maxEvent(maxEventBytes)
    {
    }

    QList<SseEvent> feed(const QByteArray &bytes);
    QString lastEventId() const { return m_lastEventId; }
    // The server's last valid "retry:", clamped to [0, Limits::MaxSseRetryMs].
    std::optional<int> retryMs() const { return m_retryMs; }
    // Bytes of an unfinished line or event still held.
    qsizetype pendingBytes() const { return m_line.size() + m_data.size(); }

    // The largest event kept. Applies from the next feed().
    qsizetype maxEventBytes() const { return m_maxEvent; }
    void setMaxEventBytes(qsizetype bytes) { m_maxEvent = bytes; }

    // Events dropped for being over the limit since the last call to either take function.
    int takeOversizedCount();
    // The same, as the message to show: empty when nothing was dropped, otherwise
    // "an SSE event is over the 64 MiB frame limit; dropped".
    QString takeOversizedError();

private:
    // Takes the line: a data line's bytes move into the event instead of being copied
    // (an answer of megabytes is one data line).
    void processLine(QByteArray line, QList<SseEvent> &out);
    void dropEvent();

    QByteArray m_line;
    bool m_lastWasCR = false;
    bool m_bomChecked = false;
    QByteArray m_bomBuffer;
    QByteArray m_data;
    bool m_hasData = false;
    QString m_type;
    QString m_lastEventId;
    std::optional<int> m_retryMs;
    qsizetype m_maxEvent;
    bool m_dropping = false;         // inside an event over the limit, until its blank line
    bool m_dropLineHasBytes = false; // the line being dropped is not empty
    int m_oversized = 0;
};

} // namespace Sonde

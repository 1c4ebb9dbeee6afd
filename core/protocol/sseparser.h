// SPDX-License-Identifier: MIT
#pragma once

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
// Thread: any, one at a time.
class SseParser
{
public:
    QList<SseEvent> feed(const QByteArray &bytes);
    QString lastEventId() const { return m_lastEventId; }
    std::optional<int> retryMs() const { return m_retryMs; }
    // Bytes of an unfinished line or event still held.
    qsizetype pendingBytes() const { return m_line.size() + m_data.size(); }

private:
    // Takes the line: a data line's bytes move into the event instead of being copied
    // (an answer of megabytes is one data line).
    void processLine(QByteArray line, QList<SseEvent> &out);

    QByteArray m_line;
    bool m_lastWasCR = false;
    bool m_bomChecked = false;
    QByteArray m_bomBuffer;
    QByteArray m_data;
    bool m_hasData = false;
    QString m_type;
    QString m_lastEventId;
    std::optional<int> m_retryMs;
};

} // namespace Sonde

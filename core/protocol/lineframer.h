// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/limits.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <utility>

namespace Sonde {

// Splits a byte stream into newline-delimited frames (MCP stdio framing). Buffers partial
// lines across reads, accepts LF and CRLF, skips blank lines. Scans each byte once, so a
// 50 MB line arriving in 64 KiB chunks costs linear time. A line longer than the limit
// (Limits::DefaultMaxFrameBytes unless the owner sets another) is dropped up to its newline
// and counted, instead of growing the buffer without bound; the lines after it are framed
// as usual. Where the reads end never changes what is framed or dropped.
// Thread: any, but one thread at a time.
class LineFramer
{
public:
    explicit LineFramer(qsizetype maxLineBytes = Limits::DefaultMaxFrameBytes)
        : m_maxLine(maxLineBytes)
    {
    }

    // Appends bytes; returns the complete lines they finished, without line ends.
    QList<QByteArray> feed(const QByteArray &bytes);
    // The unterminated rest (e.g. when the stream ended without a final newline).
    QByteArray takeRemainder();

    qsizetype bufferedBytes() const { return m_buffer.size(); }

    // The longest line kept, without its line end. Applies from the next feed().
    qsizetype maxLineBytes() const { return m_maxLine; }
    void setMaxLineBytes(qsizetype bytes) { m_maxLine = bytes; }

    // Lines dropped for being over the limit since the last call to either take function.
    int takeOversizedCount();
    // The same, as the message to show: empty when nothing was dropped, otherwise e.g.
    // "a stdout line is over the 64 MiB frame limit; dropped" for what = "stdout line".
    QString takeOversizedError(const QString &what = QStringLiteral("line"));
    // The first bytes (at most HeadBytes) of each line dropped since the last call: enough to
    // tell which request an oversized answer belonged to (JsonRpcMessage::leadingId).
    QList<QByteArray> takeOversizedHeads() { return std::exchange(m_heads, {}); }
    static constexpr qsizetype HeadBytes = 4096;
    static constexpr qsizetype BigLineBytes = 1024 * 1024;
    // A limit raised past this (--max-frame-mb) grows its buffer as it fills beyond it.
    static constexpr qsizetype MaxReserveBytes = qsizetype(256) * 1024 * 1024;

private:
    QByteArray m_buffer;
    qsizetype m_scanned = 0; // bytes of m_buffer already known to hold no newline
    qsizetype m_maxLine;
    bool m_discarding = false;
    int m_oversized = 0;
    QList<QByteArray> m_heads;
};

} // namespace Sonde

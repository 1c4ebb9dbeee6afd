// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>

namespace Sonde {

// Splits a byte stream into newline-delimited frames (MCP stdio framing). Buffers partial
// lines across reads, accepts LF and CRLF, skips blank lines. Scans each byte once, so a
// 50 MB line arriving in 64 KiB chunks costs linear time. A line longer than the limit is
// dropped up to its newline and counted, instead of growing the buffer without bound.
// Thread: any, but one thread at a time.
class LineFramer
{
public:
    explicit LineFramer(qsizetype maxLineBytes = 256 * 1024 * 1024) : m_maxLine(maxLineBytes) {}

    // Appends bytes; returns the complete lines they finished, without line ends.
    QList<QByteArray> feed(const QByteArray &bytes);
    // The unterminated rest (e.g. when the stream ended without a final newline).
    QByteArray takeRemainder();

    qsizetype bufferedBytes() const { return m_buffer.size(); }
    // Lines dropped for being over the limit since the last call.
    int takeOversizedCount();

private:
    QByteArray m_buffer;
    qsizetype m_scanned = 0; // bytes of m_buffer already known to hold no newline
    qsizetype m_maxLine;
    bool m_discarding = false;
    int m_oversized = 0;
};

} // namespace Sonde

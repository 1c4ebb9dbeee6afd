// SPDX-License-Identifier: MIT
#include "protocol/lineframer.h"

#include <utility>

using namespace Qt::StringLiterals;

namespace Sonde {

QList<QByteArray> LineFramer::feed(const QByteArray &bytes)
{
    QList<QByteArray> lines;
    qsizetype from = 0;
    if (m_discarding) {
        const qsizetype nl = bytes.indexOf('\n');
        if (nl < 0)
            return lines;
        m_discarding = false;
        from = nl + 1;
    }
    // The limit holds while a line is read, not once it is whole: the part that continues the
    // held line is measured before it is taken in, and a line that would pass the limit is
    // dropped there (its head kept for the error). Held at most: the limit, never the line.
    for (;;) {
        const qsizetype nl = bytes.indexOf('\n', from);
        const qsizetype incoming = (nl < 0 ? bytes.size() : nl) - from;
        // + 1: a CR before the newline is not the line's.
        if (m_buffer.size() + incoming <= m_maxLine + 1)
            break;
        ++m_oversized;
        if (m_heads.size() < 64)
            m_heads.append(m_buffer.isEmpty() ? bytes.sliced(from, std::min(HeadBytes, incoming))
                                              : m_buffer.left(HeadBytes));
        m_buffer.clear();
        m_scanned = 0;
        if (nl < 0) {
            m_discarding = true;
            return lines;
        }
        from = nl + 1;
    }
    // A line past a mebibyte is a big answer on its way: room for the limit is taken once (the
    // pages are touched only as it fills), where growing by doubling held the old buffer and
    // its copy at once (a 64 MiB line peaked at twice that).
    if (const qsizetype wanted = m_buffer.size() + bytes.size() - from;
        wanted > BigLineBytes && wanted > m_buffer.capacity())
        m_buffer.reserve(std::max(wanted, std::min(m_maxLine + 2, MaxReserveBytes)));
    m_buffer.append(bytes.constData() + from, bytes.size() - from);

    qsizetype start = 0;
    qsizetype scan = m_scanned;
    for (;;) {
        const qsizetype nl = m_buffer.indexOf('\n', scan);
        if (nl < 0)
            break;
        qsizetype end = nl;
        if (end > start && m_buffer.at(end - 1) == '\r')
            --end;
        // A whole line can arrive in one read: it is held to the limit exactly as one that
        // grew over several reads, so where reads end never decides what is dropped.
        const bool oversized = end - start > m_maxLine;
        if (oversized) {
            // m_discarding may have dropped this line's start already (then it was counted).
            ++m_oversized;
            if (m_heads.size() < 64)
                m_heads.append(m_buffer.sliced(start, std::min(HeadBytes, end - start)));
        }
        if (!oversized && start == 0 && nl == m_buffer.size() - 1) {
            // The buffer is exactly one line (a large frame usually is): hand the buffer
            // itself over instead of copying megabytes out of it.
            QByteArray line = std::exchange(m_buffer, {});
            line.truncate(end);
            if (!line.isEmpty())
                lines.append(std::move(line));
            start = 0;
            break;
        }
        if (!oversized && end > start)
            lines.append(m_buffer.sliced(start, end - start));
        start = nl + 1;
        scan = start;
    }
    if (start > 0)
        m_buffer.remove(0, start);
    m_scanned = m_buffer.size();
    // A CR at the very end may be the first half of a CRLF, not part of the line.
    const qsizetype partial = m_buffer.size() - (m_buffer.endsWith('\r') ? 1 : 0);
    if (partial > m_maxLine) {
        if (m_heads.size() < 64)
            m_heads.append(m_buffer.left(HeadBytes));
        m_buffer.clear();
        m_scanned = 0;
        m_discarding = true;
        ++m_oversized;
    }
    return lines;
}

QByteArray LineFramer::takeRemainder()
{
    QByteArray rest = m_buffer.trimmed();
    m_buffer.clear();
    m_scanned = 0;
    m_discarding = false;
    return rest;
}

int LineFramer::takeOversizedCount()
{
    return std::exchange(m_oversized, 0);
}

QString LineFramer::takeOversizedError(const QString &what)
{
    return Limits::oversizedMessage(takeOversizedCount(), "a "_L1 + what, what + u's', m_maxLine);
}

} // namespace Sonde

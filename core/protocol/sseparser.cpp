// SPDX-License-Identifier: MIT
#include "protocol/sseparser.h"

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace Sonde {

QList<SseEvent> SseParser::feed(const QByteArray &bytes)
{
    QList<SseEvent> out;
    if (!m_bomChecked) {
        // A UTF-8 byte order mark may open the stream, and a read may end inside it.
        static const QByteArray bom("\xEF\xBB\xBF");
        m_bomBuffer.append(bytes);
        if (m_bomBuffer.size() < 3 && bom.startsWith(m_bomBuffer))
            return out;
        m_bomChecked = true;
        QByteArray all = std::exchange(m_bomBuffer, {});
        if (all.startsWith(bom))
            all.remove(0, 3);
        return feed(all);
    }
    qsizetype i = 0;
    const char *p = bytes.constData();
    const qsizetype n = bytes.size();
    while (i < n) {
        const char c = p[i];
        if (m_lastWasCR && c == '\n') {
            m_lastWasCR = false;
            ++i;
            continue;
        }
        m_lastWasCR = false;
        // Copy a run of ordinary bytes at once.
        qsizetype j = i;
        while (j < n && p[j] != '\n' && p[j] != '\r')
            ++j;
        if (m_dropping) {
            m_dropLineHasBytes = m_dropLineHasBytes || j > i;
        } else {
            m_line.append(p + i, j - i);
            // Checked with the whole line so far, however it was split into reads; the
            // event's data only ever grows by less than the line that carried it.
            if (m_line.size() + m_data.size() > m_maxEvent)
                dropEvent();
        }
        if (j == n)
            break;
        m_lastWasCR = p[j] == '\r';
        if (m_dropping) {
            if (!m_dropLineHasBytes)
                m_dropping = false; // the blank line that ends the dropped event
            m_dropLineHasBytes = false;
        } else {
            processLine(std::exchange(m_line, {}), out);
        }
        i = j + 1;
    }
    return out;
}

void SseParser::processLine(QByteArray line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        if (m_hasData) {
            SseEvent e;
            if (!m_type.isEmpty())
                e.type = m_type;
            e.data = std::exchange(m_data, {});
            e.id = m_lastEventId;
            out.append(e);
        }
        m_data.clear();
        m_hasData = false;
        m_type.clear();
        return;
    }
    if (line.startsWith(':'))
        return; // comment
    const qsizetype colon = line.indexOf(':');
    const QByteArray field = colon < 0 ? line : line.left(colon);
    if (field == "data") {
        // The value is the line after "data:" and one optional space, cut in place.
        QByteArray value = colon < 0 ? QByteArray() : std::move(line);
        if (colon >= 0)
            value.remove(0, colon + 1 +
                                (value.size() > colon + 1 && value.at(colon + 1) == ' ' ? 1 : 0));
        if (m_hasData) {
            m_data.append('\n');
            m_data.append(value);
        } else {
            m_data = std::move(value);
        }
        m_hasData = true;
        return;
    }
    QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
    if (value.startsWith(' '))
        value.remove(0, 1);
    if (field == "event") {
        m_type = QString::fromUtf8(value);
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = QString::fromUtf8(value);
    } else if (field == "retry") {
        // The server's hint is clamped rather than trusted: the transports wait this long
        // before reconnecting, so "retry: 86400000" (or a number past INT_MAX, which would
        // otherwise be ignored or wrap in a timer) would park a session for a day while the
        // user sees nothing. A minute is above any real server's hint and well inside the
        // recovery budget; digits only, so it is never negative.
        bool digits = !value.isEmpty();
        qint64 ms = 0;
        for (char ch : std::as_const(value)) {
            digits = digits && ch >= '0' && ch <= '9';
            if (digits)
                ms = std::min<qint64>(ms * 10 + (ch - '0'), Limits::MaxSseRetryMs);
        }
        if (digits)
            m_retryMs = int(ms);
    }
}

void SseParser::dropEvent()
{
    m_dropLineHasBytes = !m_line.isEmpty();
    m_line.clear();
    m_data.clear();
    m_hasData = false;
    m_type.clear();
    m_dropping = true;
    ++m_oversized;
}

int SseParser::takeOversizedCount()
{
    return std::exchange(m_oversized, 0);
}

QString SseParser::takeOversizedError()
{
    return Limits::oversizedMessage(takeOversizedCount(), u"an SSE event"_s, u"SSE events"_s,
                                    m_maxEvent);
}

} // namespace Sonde

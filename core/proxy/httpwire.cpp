// SPDX-License-Identifier: MIT
#include "proxy/httpwire.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// A chunk-size or trailer line longer than this is not HTTP a server writes.
constexpr qsizetype MaxLineBytes = 8 * 1024;

bool sameName(QByteArrayView a, QByteArrayView b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

// The comma-separated tokens of a field value, trimmed and lower-cased.
QList<QByteArray> tokens(const QByteArray &value)
{
    QList<QByteArray> out;
    for (const QByteArray &t : value.split(',')) {
        const QByteArray token = t.trimmed().toLower();
        if (!token.isEmpty())
            out.append(token);
    }
    return out;
}
} // namespace

QByteArray HttpHead::value(QByteArrayView name) const
{
    for (const auto &[n, v] : fields) {
        if (sameName(n, name))
            return v.isNull() ? QByteArray("") : v;
    }
    return {};
}

void HttpHead::remove(QByteArrayView name)
{
    fields.removeIf(
        [name](const QPair<QByteArray, QByteArray> &f) { return sameName(f.first, name); });
}

void HttpHead::set(const QByteArray &name, const QByteArray &value)
{
    for (auto &f : fields) {
        if (sameName(f.first, name)) {
            f.second = value;
            return;
        }
    }
    fields.append({name, value});
}

void HttpHead::removeHopByHop()
{
    const QList<QByteArray> named = tokens(value("connection"));
    static const QByteArrayView always[] = {
        "connection", "keep-alive",          "proxy-connection",  "te",
        "upgrade",    "proxy-authorization", "proxy-authenticate"};
    fields.removeIf([&](const QPair<QByteArray, QByteArray> &f) {
        for (QByteArrayView n : always) {
            if (sameName(f.first, n))
                return true;
        }
        // Connection may name a framing field; those stay, the proxy keeps the framing.
        if (sameName(f.first, "content-length") || sameName(f.first, "transfer-encoding"))
            return false;
        return named.contains(f.first.toLower());
    });
}

bool HttpHead::wantsClose() const
{
    const QList<QByteArray> conn = tokens(value("connection"));
    if (conn.contains("close"))
        return true;
    return version == "HTTP/1.0" && !conn.contains("keep-alive");
}

QByteArray HttpHead::serialize() const
{
    QByteArray out;
    out.reserve(256);
    if (status == 0)
        out += method + ' ' + target + ' ' + version + "\r\n";
    else
        out += version + ' ' + QByteArray::number(status) + ' ' + reason + "\r\n";
    for (const auto &[n, v] : fields)
        out += n + ": " + v + "\r\n";
    out += "\r\n";
    return out;
}

void HttpMessageReader::next()
{
    m_state = State::Head;
    m_head = HttpHead();
    m_requestMethod.clear();
    m_line.clear();
    m_left = 0;
    m_payloadBytes = 0;
    m_chunked = false;
    m_toClose = false;
}

void HttpMessageReader::fail(const QString &why)
{
    m_state = State::Error;
    m_error = why;
}

HttpMessageReader::Step HttpMessageReader::feed(QByteArray &bytes)
{
    Step step;
    qsizetype pos = 0;
    // A line (chunk size, chunk end, trailer) from `bytes` at `pos`, joined to what an earlier
    // read left; false when it is not complete yet.
    auto takeLine = [&](QByteArray *line) {
        const qsizetype nl = bytes.indexOf('\n', pos);
        if (nl < 0) {
            m_line += QByteArrayView(bytes).sliced(pos);
            pos = bytes.size();
            if (m_line.size() > MaxLineBytes)
                fail(u"an HTTP chunk line is over %1 KiB"_s.arg(MaxLineBytes / 1024));
            return false;
        }
        *line = m_line + QByteArrayView(bytes).sliced(pos, nl - pos);
        m_line.clear();
        pos = nl + 1;
        if (line->endsWith('\r'))
            line->chop(1);
        return true;
    };
    while (pos < bytes.size() && m_state != State::Done && m_state != State::Error) {
        switch (m_state) {
        case State::Head: {
            const qsizetype before = m_line.size();
            m_line += QByteArrayView(bytes).sliced(pos);
            const qsizetype end = m_line.indexOf("\r\n\r\n", qMax<qsizetype>(0, before - 3));
            if (end < 0) {
                pos = bytes.size();
                if (m_line.size() > MaxHeadBytes)
                    fail(u"an HTTP head is over the %1 KiB limit"_s.arg(MaxHeadBytes / 1024));
                break;
            }
            pos += end + 4 - before;
            const QByteArray head = m_line.left(end);
            m_line.clear();
            if (!parseHead(head))
                break;
            step.headDone = true;
            startBody();
            break;
        }
        case State::Length:
        case State::ChunkData:
        case State::UntilClose: {
            const qsizetype n = m_state == State::UntilClose
                                    ? bytes.size() - pos
                                    : qsizetype(qMin<qint64>(m_left, bytes.size() - pos));
            step.payload += QByteArrayView(bytes).sliced(pos, n);
            pos += n;
            m_payloadBytes += n;
            if (m_state != State::UntilClose) {
                m_left -= n;
                if (m_left == 0)
                    m_state = m_state == State::Length ? State::Done : State::ChunkEnd;
            }
            break;
        }
        case State::ChunkSize: {
            QByteArray line;
            if (!takeLine(&line))
                break;
            const qsizetype semi = line.indexOf(';'); // chunk extensions are ignored
            bool ok = false;
            const QByteArray hex = (semi < 0 ? line : line.left(semi)).trimmed();
            const qint64 size = hex.toLongLong(&ok, 16);
            if (!ok || size < 0 || hex.isEmpty()) {
                fail(u"an HTTP chunk size is not hexadecimal: \"%1\""_s.arg(
                    QString::fromLatin1(line.left(40))));
                break;
            }
            m_left = size;
            m_state = size == 0 ? State::Trailer : State::ChunkData;
            break;
        }
        case State::ChunkEnd: {
            QByteArray line;
            if (!takeLine(&line))
                break;
            if (!line.isEmpty()) {
                fail(u"an HTTP chunk does not end with CRLF"_s);
                break;
            }
            m_state = State::ChunkSize;
            break;
        }
        case State::Trailer: {
            QByteArray line;
            if (!takeLine(&line))
                break;
            if (line.isEmpty())
                m_state = State::Done;
            break;
        }
        case State::Done:
        case State::Error:
            break;
        }
    }
    bytes.remove(0, pos);
    step.messageDone = m_state == State::Done;
    return step;
}

bool HttpMessageReader::finishAtClose()
{
    if (m_state == State::UntilClose)
        m_state = State::Done;
    return m_state == State::Done;
}

bool HttpMessageReader::parseHead(const QByteArray &text)
{
    const QList<QByteArray> lines = text.split('\n');
    auto stripped = [](QByteArray line) {
        if (line.endsWith('\r'))
            line.chop(1);
        return line;
    };
    const QByteArray start = stripped(lines.value(0));
    const QList<QByteArray> parts = start.split(' ');
    if (m_kind == Kind::Request) {
        if (parts.size() != 3 || !parts[2].startsWith("HTTP/1.")) {
            fail(
                u"not an HTTP/1.1 request line: \"%1\""_s.arg(QString::fromLatin1(start.left(80))));
            return false;
        }
        m_head.method = parts[0];
        m_head.target = parts[1];
        m_head.version = parts[2];
    } else {
        bool ok = false;
        m_head.status = parts.value(1).toInt(&ok);
        if (parts.size() < 2 || !parts[0].startsWith("HTTP/1.") || !ok || m_head.status < 100 ||
            m_head.status > 999) {
            fail(u"not an HTTP/1.1 status line: \"%1\""_s.arg(QString::fromLatin1(start.left(80))));
            return false;
        }
        m_head.version = parts[0];
        m_head.reason = start.mid(parts[0].size() + parts[1].size() + 2);
    }
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = stripped(lines[i]);
        const qsizetype colon = line.indexOf(':');
        if (line.startsWith(' ') || line.startsWith('\t') || colon <= 0 ||
            line.left(colon).contains(' ')) {
            fail(u"a malformed HTTP header line: \"%1\""_s.arg(QString::fromLatin1(line.left(80))));
            return false;
        }
        m_head.fields.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    return true;
}

void HttpMessageReader::startBody()
{
    const int s = m_head.status;
    if (m_kind == Kind::Response &&
        ((s >= 100 && s < 200) || s == 204 || s == 304 || m_requestMethod == "HEAD")) {
        m_state = State::Done;
        return;
    }
    const QList<QByteArray> codings = tokens(m_head.value("transfer-encoding"));
    if (!codings.isEmpty()) {
        if (codings.last() != "chunked") {
            fail(u"an HTTP body's Transfer-Encoding does not end in chunked"_s);
            return;
        }
        m_chunked = true;
        m_state = State::ChunkSize;
        return;
    }
    const QByteArray length = m_head.value("content-length");
    if (!length.isNull()) {
        bool ok = false;
        m_left = length.trimmed().toLongLong(&ok);
        if (!ok || m_left < 0) {
            fail(u"an HTTP Content-Length is not a number: \"%1\""_s.arg(
                QString::fromLatin1(length.left(40))));
            return;
        }
        m_state = m_left == 0 ? State::Done : State::Length;
        return;
    }
    if (m_kind == Kind::Response) {
        m_toClose = true;
        m_state = State::UntilClose;
    } else {
        m_state = State::Done;
    }
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/wwwauthenticate.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

bool isTokenChar(char c)
{
    // RFC 9110 §5.6.2 tchar
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken68Char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           QByteArrayView("-._~+/").contains(c);
}

// A cursor over one header value.
class Scanner
{
public:
    explicit Scanner(const QByteArray &text) : m_text(text) {}
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t'))
            ++m_pos;
    }
    void skipSpaceAndCommas()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == ','))
            ++m_pos;
    }
    QByteArray token()
    {
        const qsizetype start = m_pos;
        while (!atEnd() && isTokenChar(peek()))
            ++m_pos;
        return m_text.mid(start, m_pos - start);
    }
    QByteArray quoted()
    {
        QByteArray out;
        ++m_pos; // the opening quote
        while (!atEnd()) {
            const char c = m_text.at(m_pos++);
            if (c == '"')
                return out;
            if (c == '\\' && !atEnd())
                out += m_text.at(m_pos++);
            else
                out += c;
        }
        return out; // unterminated: take what there is
    }
    qsizetype pos() const { return m_pos; }
    void setPos(qsizetype pos) { m_pos = pos; }
    // A token68 ends the challenge: its characters, then '=' padding, then space, a comma or
    // the end.
    bool token68(QByteArray *out)
    {
        const qsizetype start = m_pos;
        qsizetype p = m_pos;
        while (p < m_text.size() && isToken68Char(m_text.at(p)))
            ++p;
        if (p == start)
            return false;
        while (p < m_text.size() && m_text.at(p) == '=')
            ++p;
        qsizetype q = p;
        while (q < m_text.size() && (m_text.at(q) == ' ' || m_text.at(q) == '\t'))
            ++q;
        if (q < m_text.size() && m_text.at(q) != ',')
            return false;
        *out = m_text.mid(start, p - start);
        m_pos = q;
        return true;
    }

private:
    const QByteArray &m_text;
    qsizetype m_pos = 0;
};

// After a challenge's scheme: either a token68 or a list of name=value pairs, which ends where
// a token not followed by '=' starts (the next challenge's scheme).
void parseParams(Scanner &s, WwwAuthenticate::Challenge &challenge)
{
    s.skipSpace();
    const qsizetype start = s.pos();
    const QByteArray name = s.token();
    s.skipSpace();
    bool params = !name.isEmpty() && s.peek() == '=';
    if (params) {
        // "abc==" and "abc=" (end) are token68 padding, "abc=value" a parameter.
        s.setPos(s.pos() + 1);
        s.skipSpace();
        params = !s.atEnd() && s.peek() != '=' && s.peek() != ',';
    }
    if (!params) {
        s.setPos(start);
        QByteArray t68;
        if (s.token68(&t68))
            challenge.token68 = QString::fromLatin1(t68);
        return;
    }
    s.setPos(start);
    for (;;) {
        s.skipSpaceAndCommas();
        const qsizetype at = s.pos();
        const QByteArray key = s.token();
        s.skipSpace();
        if (key.isEmpty() || s.peek() != '=') {
            s.setPos(at);
            return;
        }
        s.setPos(s.pos() + 1);
        s.skipSpace();
        const QByteArray value = s.peek() == '"' ? s.quoted() : s.token();
        const QString k = QString::fromLatin1(key).toLower();
        if (!challenge.params.contains(k)) // RFC 9110: a repeated name is invalid; keep the first
            challenge.params.insert(k, QString::fromUtf8(value));
        s.skipSpace();
        if (s.peek() != ',')
            return;
    }
}

} // namespace

QList<WwwAuthenticate::Challenge> WwwAuthenticate::parse(const QList<QByteArray> &headers)
{
    QList<Challenge> out;
    for (const QByteArray &header : headers) {
        Scanner s(header);
        for (;;) {
            s.skipSpaceAndCommas();
            if (s.atEnd())
                break;
            const QByteArray scheme = s.token();
            if (scheme.isEmpty())
                break; // not a challenge: stop reading this header
            Challenge c;
            c.scheme = QString::fromLatin1(scheme).toLower();
            if (s.peek() == ' ' || s.peek() == '\t')
                parseParams(s, c);
            out.append(c);
        }
    }
    return out;
}

WwwAuthenticate::Bearer WwwAuthenticate::bearer(const QList<QByteArray> &headers)
{
    for (const Challenge &c : parse(headers)) {
        if (c.scheme != "bearer"_L1)
            continue;
        Bearer b;
        b.present = true;
        b.resourceMetadata = c.params.value(u"resource_metadata"_s);
        b.scope = c.params.value(u"scope"_s);
        b.error = c.params.value(u"error"_s);
        b.errorDescription = c.params.value(u"error_description"_s);
        return b;
    }
    return {};
}

} // namespace Sonde

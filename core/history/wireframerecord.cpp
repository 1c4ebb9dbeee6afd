// SPDX-License-Identifier: MIT
#include "wireframerecord.h"
#include "protocol/jsonrpcmessage.h"

#include "protocol/jsonscanner.h"
#include "transcript/redactor.h"

#include <QDateTime>
#include <QJsonValue>

#include <algorithm>
#include <array>
#include <climits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Where a value sits, as far as the history's columns care.
enum class Place : quint8
{
    Message, // the frame's own members
    Params,
    Result,
    Other
};

struct Container
{
    char close;
    Place place;
};

// The escapes QJsonDocument writes back as they are; any other (\u, \/, Qt's any-byte) is
// written another way, and the frame takes the general path.
bool isKeptEscape(char c)
{
    switch (c) {
    case '"':
    case '\\':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
        return true;
    default:
        return false;
    }
}

// The text of a string whose escapes are all kept ones; nullopt for any other escape.
std::optional<QString> unescaped(QByteArrayView body)
{
    QByteArray out;
    out.reserve(body.size());
    for (qsizetype i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        const char e = body[++i]; // the scanner passed it: a byte follows every backslash
        if (!isKeptEscape(e))
            return std::nullopt;
        switch (e) {
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        default:
            out += e;
        }
    }
    return QString::fromUtf8(out);
}

// A byte below 0x20: a line break between tokens would split a JSON Lines record, and one
// inside a string is written escaped by the general path.
bool hasControlByte(QByteArrayView bytes)
{
    return std::any_of(bytes.begin(), bytes.end(), [](char c) { return uchar(c) < 0x20; });
}

// JsonRpcMessage::idText for a number as Qt's parser keeps it: an integer as it is, anything
// else as the double it parses to.
QString idOfNumber(QByteArrayView token)
{
    bool ok = false;
    const qint64 v = token.toLongLong(&ok);
    if (ok)
        return QString::number(v);
    return JsonRpcMessage::idText(QJsonValue(token.toDouble()));
}

struct Found
{
    QByteArrayView method, id, name, uri, protocolVersion;
    bool methodEscaped = false, idEscaped = false, nameEscaped = false, uriEscaped = false;
    bool protocolVersionEscaped = false;
    bool idIsNumber = false, idIsString = false;
    bool resultIsError = false;
    int members = 0, methods = 0, ids = 0, params = 0, results = 0, errors = 0;
};

// QByteArray::number's digits, without its allocation.
void appendDecimal(QByteArray &out, qint64 v)
{
    char digits[24];
    int at = sizeof digits;
    const bool negative = v < 0;
    quint64 u = negative ? 0 - quint64(v) : quint64(v);
    do {
        digits[--at] = char('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (negative)
        digits[--at] = '-';
    out.append(digits + at, qsizetype(sizeof digits) - at);
}

QString textOf(QByteArrayView body, bool escaped)
{
    return escaped ? unescaped(body).value_or(QString()) : QString::fromUtf8(body);
}

} // namespace

std::optional<WireFrameRecord> WireFrameRecord::read(const TranscriptEvent &event,
                                                     const Redactor *redactor)
{
    using D = TranscriptEvent::Direction;
    if (event.direction != D::Outgoing && event.direction != D::Incoming)
        return std::nullopt;
    const QByteArrayView frame(event.raw);
    if (hasControlByte(frame))
        return std::nullopt;
    if (redactor && redactor->mayHoldSecret(event.server))
        return std::nullopt;

    JsonScanner s(frame);
    Found found;
    std::array<Container, Limits::MaxJsonDepth> open;
    int top = 0;
    QByteArrayView key;
    bool keyEscaped = false;

    // At a key's opening quote: the key, its colon; the frame's own members are counted.
    const auto readKey = [&] {
        if (s.i >= s.n || s.f[s.i] != '"')
            return false;
        const qsizetype start = s.i + 1;
        keyEscaped = false;
        if (!s.string(&keyEscaped))
            return false;
        key = frame.sliced(start, s.i - 1 - start);
        if (keyEscaped && !unescaped(key))
            return false;
        s.space();
        if (s.i >= s.n || s.f[s.i] != ':')
            return false;
        ++s.i;
        if (top == 1 && !keyEscaped) {
            ++found.members;
            found.methods += key == "method";
            found.ids += key == "id";
            found.params += key == "params";
            found.results += key == "result";
            found.errors += key == "error";
        } else if (top == 1) {
            ++found.members;
        }
        return true;
    };
    const auto keyIs = [&](QByteArrayView name) { return !keyEscaped && key == name; };

    s.space();
    if (s.i >= s.n || s.f[s.i] != '{')
        return std::nullopt;
    for (;;) {
        s.space();
        if (s.i >= s.n)
            return std::nullopt;
        const Place place = top == 0 ? Place::Other : open[top - 1].place;
        const bool inObject = top > 0 && open[top - 1].close == '}';
        const char c = s.f[s.i];
        if (c == '{' || c == '[') {
            if (top + 1 > Limits::MaxJsonDepth)
                return std::nullopt;
            Place child = Place::Other;
            if (top == 0)
                child = Place::Message;
            else if (c == '{' && place == Place::Message && inObject && keyIs("params"))
                child = Place::Params;
            else if (c == '{' && place == Place::Message && inObject && keyIs("result"))
                child = Place::Result;
            open[top++] = {c == '{' ? '}' : ']', child};
            ++s.i;
            s.space();
            if (s.i < s.n && s.f[s.i] == open[top - 1].close) {
                ++s.i;
                --top;
            } else {
                if (c == '{') {
                    if (!readKey())
                        return std::nullopt;
                } else {
                    key = {};
                }
                continue;
            }
        } else if (c == '"') {
            const qsizetype start = s.i + 1;
            bool escaped = false;
            if (!s.string(&escaped))
                return std::nullopt;
            const QByteArrayView body = frame.sliced(start, s.i - 1 - start);
            if (escaped) {
                const std::optional<QString> text = unescaped(body);
                if (!text || (redactor && redactor->mayHoldSecret(*text)))
                    return std::nullopt;
            } else if (redactor && redactor->mayHoldSecret(QString::fromUtf8(body))) {
                return std::nullopt;
            }
            if (inObject && place == Place::Message && keyIs("method")) {
                found.method = body;
                found.methodEscaped = escaped;
            } else if (inObject && place == Place::Message && keyIs("id")) {
                found.id = body;
                found.idEscaped = escaped;
                found.idIsString = true;
            } else if (inObject && place == Place::Params && keyIs("name")) {
                found.name = body;
                found.nameEscaped = escaped;
            } else if (inObject && place == Place::Params && keyIs("uri")) {
                found.uri = body;
                found.uriEscaped = escaped;
            } else if (inObject && place == Place::Result && keyIs("protocolVersion")) {
                found.protocolVersion = body;
                found.protocolVersionEscaped = escaped;
            }
        } else {
            const qsizetype start = s.i;
            if (!s.scalar())
                return std::nullopt;
            const QByteArrayView token = frame.sliced(start, s.i - start);
            if (inObject && place == Place::Message && keyIs("id") && token != "true" &&
                token != "false" && token != "null") {
                found.id = token;
                found.idIsNumber = true;
            } else if (inObject && place == Place::Result && keyIs("isError")) {
                found.resultIsError = token == "true";
            }
        }
        // After a value: a separator, or the end of its container.
        bool done = false;
        for (;;) {
            if (top == 0) {
                done = true;
                break;
            }
            s.space();
            if (s.i >= s.n)
                return std::nullopt;
            if (s.f[s.i] == ',') {
                ++s.i;
                if (open[top - 1].close == '}') {
                    s.space();
                    if (!readKey())
                        return std::nullopt;
                } else {
                    key = {};
                }
                break;
            }
            if (s.f[s.i] != open[top - 1].close)
                return std::nullopt;
            ++s.i;
            --top;
        }
        if (done)
            break;
    }
    s.space();
    if (s.i != s.n || found.members == 0)
        return std::nullopt; // something after the object; or {}, which is no message
    if (found.methods > 1 || found.ids > 1 || found.params > 1 || found.results > 1 ||
        found.errors > 1)
        return std::nullopt;

    WireFrameRecord r;
    r.method = found.method.isNull() ? QString() : textOf(found.method, found.methodEscaped);
    if (found.idIsString)
        r.requestId = textOf(found.id, found.idEscaped);
    else if (found.idIsNumber)
        r.requestId = idOfNumber(found.id);
    if (r.method == "tools/call"_L1 || r.method == "prompts/get"_L1)
        r.tool = textOf(found.name, found.nameEscaped);
    else if (r.method == "resources/read"_L1)
        r.tool = textOf(found.uri, found.uriEscaped);
    r.protocolVersion = textOf(found.protocolVersion, found.protocolVersionEscaped);
    r.isError = found.errors > 0 || found.resultIsError;
    r.isResponse =
        r.method.isEmpty() && !r.requestId.isEmpty() && (found.results > 0 || found.errors > 0);

    // QJsonDocument's compact form of TranscriptEvent::toJson: its keys in order, integers
    // as digits, the frame as "msg".
    qsizetype from = 0, to = frame.size();
    while (from < to && frame[from] == ' ')
        ++from;
    while (to > from && frame[to - 1] == ' ')
        --to;
    // One server's events come in runs: its name is escaped once per run.
    thread_local QString lastServer;
    thread_local QByteArray lastServerJson;
    if (lastServerJson.isEmpty() || event.server != lastServer) {
        lastServer = event.server;
        lastServerJson = jsonString(event.server);
    }
    const QByteArray &server = lastServerJson;
    QByteArray &out = r.record;
    out.reserve(to - from + server.size() + 96);
    out += event.direction == D::Outgoing ? "{\"dir\":\"send\",\"gen\":"
                                          : "{\"dir\":\"recv\",\"gen\":";
    appendDecimal(out, event.generation);
    out += ",\"msg\":";
    out += frame.sliced(from, to - from);
    out += ",\"server\":";
    out += server;
    out += ",\"t\":\"";
    out += isoTime(event.timeMs);
    out += "\",\"t_ms\":";
    appendDecimal(out, event.timeMs);
    out += '}';
    return r;
}

std::optional<TranscriptEvent> WireFrameRecord::eventOfRecordLine(QByteArrayView line)
{
    if (hasControlByte(line))
        return std::nullopt;
    JsonScanner s(line);
    s.space();
    if (s.i >= s.n || s.f[s.i] != '{')
        return std::nullopt;
    ++s.i;
    // A plain integer token, as Qt's parser keeps it (no fraction, no exponent).
    const auto integer = [](QByteArrayView token, qint64 *out) {
        bool ok = false;
        *out = token.toLongLong(&ok);
        return ok && !token.isEmpty() && (token[0] == '-' || (token[0] >= '0' && token[0] <= '9'));
    };
    QByteArrayView dir, msg, t;
    std::optional<QString> server;
    qint64 gen = 0, tMs = 0;
    int seen = 0;
    enum : int
    {
        Dir = 1,
        Gen = 2,
        Msg = 4,
        Server = 8,
        T = 16,
        TMs = 32
    };
    for (;;) {
        s.space();
        if (s.i >= s.n || s.f[s.i] != '"')
            return std::nullopt;
        const qsizetype keyStart = s.i + 1;
        bool escaped = false;
        if (!s.string(&escaped) || escaped)
            return std::nullopt;
        const QByteArrayView key = line.sliced(keyStart, s.i - 1 - keyStart);
        s.space();
        if (s.i >= s.n || s.f[s.i] != ':')
            return std::nullopt;
        ++s.i;
        s.space();
        if (s.i >= s.n)
            return std::nullopt;
        const qsizetype valueStart = s.i;
        int which = 0;
        if (key == "dir")
            which = Dir;
        else if (key == "gen")
            which = Gen;
        else if (key == "msg")
            which = Msg;
        else if (key == "server")
            which = Server;
        else if (key == "t")
            which = T;
        else if (key == "t_ms")
            which = TMs;
        if (which == 0 || (seen & which))
            return std::nullopt; // another key (an event, a line), or one twice
        seen |= which;
        if (which == Msg) {
            if (s.f[s.i] != '{' || !s.value(1))
                return std::nullopt;
            msg = line.sliced(valueStart, s.i - valueStart);
        } else if (s.f[s.i] == '"') {
            bool valueEscaped = false;
            if (!s.string(&valueEscaped))
                return std::nullopt;
            const QByteArrayView body = line.sliced(valueStart + 1, s.i - valueStart - 2);
            if (which == Server) {
                server = valueEscaped ? unescaped(body) : QString::fromUtf8(body);
                if (!server)
                    return std::nullopt;
            } else if (valueEscaped || (which != Dir && which != T)) {
                return std::nullopt;
            } else if (which == Dir) {
                dir = body;
            } else {
                t = body;
            }
        } else {
            if (!s.scalar())
                return std::nullopt;
            const QByteArrayView token = line.sliced(valueStart, s.i - valueStart);
            if (which == Gen) {
                if (!integer(token, &gen) || gen < INT_MIN || gen > INT_MAX)
                    return std::nullopt;
            } else if (which != TMs || !integer(token, &tMs)) {
                return std::nullopt;
            }
        }
        s.space();
        if (s.i < s.n && s.f[s.i] == ',') {
            ++s.i;
            continue;
        }
        if (s.i < s.n && s.f[s.i] == '}') {
            ++s.i;
            break;
        }
        return std::nullopt;
    }
    s.space();
    if (s.i != s.n || seen != (Dir | Gen | Msg | Server | T | TMs))
        return std::nullopt;
    if ((dir != "send" && dir != "recv") || t != QByteArrayView(isoTime(tMs)))
        return std::nullopt;
    TranscriptEvent e;
    e.timeMs = tMs;
    e.server = *server;
    e.generation = int(gen);
    e.direction =
        dir == "send" ? TranscriptEvent::Direction::Outgoing : TranscriptEvent::Direction::Incoming;
    e.raw = msg.toByteArray();
    return e;
}

QByteArray WireFrameRecord::isoTime(qint64 ms)
{
    constexpr qint64 DayMs = 86'400'000;
    constexpr qint64 Year10000Ms = 253'402'300'800'000; // 10000-01-01T00:00:00Z
    if (ms < 0 || ms >= Year10000Ms)
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toLatin1();
    // The civil date of a day number (H. Hinnant's days_from_civil, inverted).
    const qint64 days = ms / DayMs;
    qint64 rest = ms % DayMs;
    const qint64 z = days + 719468;
    const qint64 era = z / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    const int day = int(doy - (153 * mp + 2) / 5 + 1);
    const int month = int(mp < 10 ? mp + 3 : mp - 9);
    const int year = int(yoe + era * 400 + (month <= 2 ? 1 : 0));
    const int hour = int(rest / 3'600'000);
    rest %= 3'600'000;
    const int minute = int(rest / 60'000);
    rest %= 60'000;
    const int second = int(rest / 1000);
    const int milli = int(rest % 1000);
    char text[24];
    const auto put = [&text](int at, int value, int digits) {
        for (int k = digits - 1; k >= 0; --k, value /= 10)
            text[at + k] = char('0' + value % 10);
    };
    put(0, year, 4);
    text[4] = '-';
    put(5, month, 2);
    text[7] = '-';
    put(8, day, 2);
    text[10] = 'T';
    put(11, hour, 2);
    text[13] = ':';
    put(14, minute, 2);
    text[16] = ':';
    put(17, second, 2);
    text[19] = '.';
    put(20, milli, 3);
    text[23] = 'Z';
    return QByteArray(text, sizeof text);
}

QByteArray WireFrameRecord::jsonString(const QString &text)
{
    static constexpr char hex[] = "0123456789abcdef";
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out += '"';
    for (const char ch : utf8) {
        const uchar c = uchar(ch);
        if (c >= 0x20 && c != '"' && c != '\\') {
            out += ch;
            continue;
        }
        out += '\\';
        switch (c) {
        case '"':
            out += '"';
            break;
        case '\\':
            out += '\\';
            break;
        case '\b':
            out += 'b';
            break;
        case '\f':
            out += 'f';
            break;
        case '\n':
            out += 'n';
            break;
        case '\r':
            out += 'r';
            break;
        case '\t':
            out += 't';
            break;
        default:
            out += "u00";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    out += '"';
    return out;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "protocol/jsonrpcmessage.h"

#include "protocol/jsonscanner.h"

#include <QCborValue>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace Qt::StringLiterals;

namespace Sonde {

JsonRpcMessage JsonRpcMessage::request(const QJsonValue &id, const QString &method,
                                       const QJsonObject &params)
{
    JsonRpcMessage m;
    m.m_type = Type::Request;
    m.m_id = id;
    m.m_method = method;
    m.m_params = params;
    return m;
}

JsonRpcMessage JsonRpcMessage::notification(const QString &method, const QJsonObject &params)
{
    JsonRpcMessage m;
    m.m_type = Type::Notification;
    m.m_method = method;
    m.m_params = params;
    return m;
}

JsonRpcMessage JsonRpcMessage::response(const QJsonValue &id, const QJsonValue &result)
{
    JsonRpcMessage m;
    m.m_type = Type::Response;
    m.m_id = id;
    m.m_result = result;
    return m;
}

JsonRpcMessage JsonRpcMessage::errorResponse(const QJsonValue &id, int code, const QString &message,
                                             const QJsonValue &data)
{
    JsonRpcMessage m;
    m.m_type = Type::ErrorResponse;
    m.m_id = id;
    m.m_errorCode = code;
    m.m_errorMessage = message;
    m.m_errorData = data;
    return m;
}

// An integer that idKey() can spell exactly. The range is checked before the cast: casting
// 1e300 to qint64 is undefined behaviour (found by tests/fuzz/fuzz_jsonrpc).
static bool isInt64(double d)
{
    return std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0;
}

static bool validId(const QJsonValue &id)
{
    return id.isString() || (id.isDouble() && isInt64(id.toDouble()));
}

JsonRpcMessage JsonRpcMessage::fromJson(const QJsonObject &o, Error *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = Error::protocol(why);
        return JsonRpcMessage{};
    };
    if (o.value("jsonrpc"_L1).toString() != "2.0"_L1)
        return fail(u"not JSON-RPC 2.0: \"jsonrpc\" must be \"2.0\""_s);
    const QJsonValue id = o.value("id"_L1);
    const QJsonValue method = o.value("method"_L1);
    if (method.isString()) {
        const QJsonValue params = o.value("params"_L1);
        if (!params.isUndefined() && !params.isObject())
            return fail(u"\"params\" of %1 must be an object"_s.arg(method.toString()));
        if (id.isUndefined())
            return notification(method.toString(), params.toObject());
        if (!validId(id))
            return fail(u"request id must be a string or an integer"_s);
        return request(id, method.toString(), params.toObject());
    }
    if (!method.isUndefined())
        return fail(u"\"method\" must be a string"_s);
    if (!validId(id) && !id.isNull())
        return fail(u"response id must be a string or an integer"_s);
    const bool hasResult = o.contains("result"_L1);
    const bool hasError = o.contains("error"_L1);
    if (hasResult == hasError)
        return fail(u"a response must carry exactly one of \"result\" and \"error\""_s);
    if (hasResult)
        return response(id, o.value("result"_L1));
    const QJsonObject err = o.value("error"_L1).toObject();
    if (!err.value("code"_L1).isDouble())
        return fail(u"error response without a numeric \"code\""_s);
    return errorResponse(id, err.value("code"_L1).toInt(), err.value("message"_L1).toString(),
                         err.value("data"_L1));
}

JsonRpcMessage::Parsed JsonRpcMessage::parse(const QByteArray &frame)
{
    Parsed out;
    // Before the parser, which recurses once per level: a frame of a million '[' must be a
    // clear error, not a stack overflow.
    if (const int depth = jsonDepth(frame); depth > Limits::MaxJsonDepth) {
        out.error = Error::protocol(
            u"JSON nested %1 levels deep, over the %2-level depth limit; not parsed"_s.arg(depth)
                .arg(Limits::MaxJsonDepth));
        out.error.setJsonRpcCode(JsonRpcCode::ParseError);
        return out;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(frame, &pe);
    if (pe.error != QJsonParseError::NoError) {
        out.error =
            Error::protocol(u"not JSON (%1 at byte %2)"_s.arg(pe.errorString()).arg(pe.offset));
        out.error.setJsonRpcCode(JsonRpcCode::ParseError);
        return out;
    }
    auto take = [&](const QJsonValue &v) {
        if (!v.isObject()) {
            out.error = Error::protocol(u"a JSON-RPC message must be an object"_s);
            return;
        }
        Error e;
        JsonRpcMessage m = fromJson(v.toObject(), &e);
        if (e.isError())
            out.error = e;
        else
            out.messages.append(m);
    };
    if (doc.isArray()) {
        const QJsonArray batch = doc.array();
        if (batch.isEmpty())
            out.error = Error::protocol(u"empty JSON-RPC batch"_s);
        for (const QJsonValue &v : batch)
            take(v);
    } else {
        take(doc.object());
    }
    return out;
}

Error JsonRpcMessage::toError() const
{
    return Error::remote(m_errorCode, m_errorMessage, m_errorData);
}

QJsonObject JsonRpcMessage::toJson() const
{
    QJsonObject o{{"jsonrpc"_L1, "2.0"_L1}};
    switch (m_type) {
    case Type::Request:
        o.insert("id"_L1, m_id);
        Q_FALLTHROUGH();
    case Type::Notification:
        o.insert("method"_L1, m_method);
        if (!m_params.isEmpty())
            o.insert("params"_L1, m_params);
        break;
    case Type::Response:
        o.insert("id"_L1, m_id);
        o.insert("result"_L1, m_result.isUndefined() ? QJsonValue(QJsonObject{}) : m_result);
        break;
    case Type::ErrorResponse: {
        o.insert("id"_L1, m_id);
        QJsonObject err{{"code"_L1, m_errorCode}, {"message"_L1, m_errorMessage}};
        if (!m_errorData.isUndefined() && !m_errorData.isNull())
            err.insert("data"_L1, m_errorData);
        o.insert("error"_L1, err);
        break;
    }
    case Type::Invalid:
        break;
    }
    return o;
}

namespace {

// What QJsonDocument writes for a scalar, found by writing it alone in an array.
void appendThroughArray(QByteArray &out, const QJsonValue &v)
{
    const QByteArray one = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    out.append(one.constData() + 1, one.size() - 2);
}

// One value, compact, byte for byte as QJsonDocument writes it: the envelope is written here
// rather than built as an object first, because building it took a third of the engine's own
// instructions per call (callgrind). A number is written by its stored kind (an integer, or
// the shortest double), as Qt's writer does; a string that needs escaping goes through Qt.
void appendCompact(QByteArray &out, const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Object:
        out += QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
        return;
    case QJsonValue::Array:
        out += QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
        return;
    case QJsonValue::Bool:
        out += v.toBool() ? "true" : "false";
        return;
    case QJsonValue::Double: {
        const QCborValue n = QCborValue::fromJsonValue(v);
        if (n.isInteger())
            out += QByteArray::number(n.toInteger());
        else
            appendThroughArray(out, v);
        return;
    }
    case QJsonValue::String: {
        const QString text = v.toString();
        const bool plain = std::all_of(text.cbegin(), text.cend(), [](QChar c) {
            return c.unicode() >= 0x20 && c.unicode() < 0x7f && c != u'"' && c != u'\\';
        });
        if (!plain)
            return appendThroughArray(out, v);
        out += '"';
        out += text.toLatin1();
        out += '"';
        return;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out += "null";
        return;
    }
}

} // namespace

QByteArray JsonRpcMessage::toCompactJson() const
{
    // The keys in the order QJsonObject keeps them (sorted), so the bytes are the same as
    // QJsonDocument(toJson()) writes; tst_jsonrpcmessage compares the two.
    QByteArray out;
    out.reserve(128);
    out += '{';
    const auto id = [&] {
        if (m_id.isUndefined()) // as QJsonObject::insert drops an undefined value
            return;
        out += "\"id\":";
        appendCompact(out, m_id);
        out += ',';
    };
    switch (m_type) {
    case Type::Request:
    case Type::Notification:
        if (m_type == Type::Request)
            id();
        out += "\"jsonrpc\":\"2.0\",\"method\":";
        appendCompact(out, m_method);
        if (!m_params.isEmpty()) {
            out += ",\"params\":";
            out += QJsonDocument(m_params).toJson(QJsonDocument::Compact);
        }
        break;
    case Type::Response:
        id();
        out += "\"jsonrpc\":\"2.0\",\"result\":";
        if (m_result.isUndefined())
            out += "{}";
        else
            appendCompact(out, m_result);
        break;
    case Type::ErrorResponse:
        out += "\"error\":{\"code\":";
        out += QByteArray::number(m_errorCode);
        if (!m_errorData.isUndefined() && !m_errorData.isNull()) {
            out += ",\"data\":";
            appendCompact(out, m_errorData);
        }
        out += ",\"message\":";
        appendCompact(out, m_errorMessage);
        out += "},";
        id();
        out += "\"jsonrpc\":\"2.0\"";
        break;
    case Type::Invalid:
        out += "\"jsonrpc\":\"2.0\"";
        break;
    }
    out += '}';
    return out;
}

int JsonRpcMessage::jsonDepth(QByteArrayView text)
{
    // Brackets outside strings; a string is skipped to its closing quote with memchr, so a
    // frame of megabytes of text costs about one memory read.
    int depth = 0;
    int deepest = 0;
    const char *p = text.data();
    const char *const end = p + text.size();
    while (p < end) {
        const char c = *p++;
        if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == '"') {
            for (;;) {
                const char *q = static_cast<const char *>(std::memchr(p, '"', end - p));
                if (!q)
                    return deepest; // unterminated: the parser says so
                const char *b = q;
                while (b > p && b[-1] == '\\')
                    --b;
                p = q + 1;
                if ((q - b) % 2 == 0)
                    break; // not escaped
            }
        }
    }
    return deepest;
}

std::optional<QJsonValue> JsonRpcMessage::leadingId(QByteArrayView head)
{
    // A small scanner of the top-level keys of a truncated object: it needs no complete
    // frame, and gives up (nothing) on anything it does not understand.
    qsizetype i = 0;
    const qsizetype n = head.size();
    auto ws = [&] {
        while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
            ++i;
    };
    auto string = [&](QByteArray *out) -> bool { // at '"'; leaves i after the closing quote
        ++i;
        while (i < n && head[i] != '"') {
            if (head[i] == '\\') {
                if (++i >= n)
                    return false;
                if (out)
                    out->append('\\');
            }
            if (out)
                out->append(head[i]);
            ++i;
        }
        if (i >= n)
            return false;
        ++i;
        return true;
    };
    std::optional<QJsonValue> id;
    ws();
    if (i >= n || head[i] != '{')
        return std::nullopt;
    ++i;
    for (;;) {
        ws();
        if (i >= n || head[i] != '"')
            return std::nullopt;
        QByteArray key;
        if (!string(&key))
            return std::nullopt;
        ws();
        if (i >= n || head[i] != ':')
            return std::nullopt;
        ++i;
        ws();
        if (i >= n)
            return std::nullopt;
        // A response: its id, when it came first. A request or notification from the server
        // ("method") is not an answer to anything of ours, whatever its id.
        if (key == "result" || key == "error")
            return id;
        if (key == "method")
            return std::nullopt;
        if (key == "id") {
            if (head[i] == '"') {
                QByteArray value;
                if (!string(&value) || value.contains('\\'))
                    return std::nullopt;
                id = QJsonValue(QString::fromUtf8(value));
            } else {
                const qsizetype start = i;
                if (head[i] == '-')
                    ++i;
                while (i < n && head[i] >= '0' && head[i] <= '9')
                    ++i;
                bool ok = false;
                const qint64 v = head.sliced(start, i - start).toLongLong(&ok);
                if (!ok)
                    return std::nullopt;
                id = QJsonValue(v);
            }
        } else if (head[i] == '"') { // skip this key's value: a string, a bracketed value, a scalar
            if (!string(nullptr))
                return std::nullopt;
        } else if (head[i] == '{' || head[i] == '[') {
            int depth = 0;
            while (i < n) {
                const char c = head[i];
                if (c == '"') {
                    if (!string(nullptr))
                        return std::nullopt;
                    continue;
                }
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0) {
                    ++i;
                    break;
                }
                ++i;
            }
            if (depth != 0)
                return std::nullopt;
        } else {
            while (i < n && head[i] != ',' && head[i] != '}')
                ++i;
        }
        ws();
        if (i >= n || head[i] != ',')
            return std::nullopt;
        ++i;
    }
}

namespace {

// A value the scanner has already found well formed, read as Qt's parser reads it, when that
// takes no parser: a string of printable ASCII without escapes, or a whole number of at most
// 18 digits (always a qint64 to the parser too). Anything else: nullopt.
std::optional<QJsonValue> plainScalar(QByteArrayView text)
{
    if (text.size() >= 2 && text.front() == '"') {
        const QByteArrayView inner = text.sliced(1, text.size() - 2);
        if (!std::all_of(inner.begin(), inner.end(),
                         [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }))
            return std::nullopt;
        return QJsonValue(QString::fromLatin1(inner));
    }
    const qsizetype digits = text.size() - (text.startsWith('-') ? 1 : 0);
    if (digits < 1 || digits > 18 ||
        !std::all_of(text.end() - digits, text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return QJsonValue(text.toLongLong());
}

} // namespace

std::optional<JsonRpcMessage::Envelope> JsonRpcMessage::peekEnvelope(QByteArrayView frame)
{
    JsonScanner s(frame);
    const qsizetype n = s.n;
    const char *f = s.f;
    // Qt skips a byte order mark (when anything follows it).
    if (n > 3 && QByteArrayView(f, 3) == "\xEF\xBB\xBF")
        s.i = 3;
    s.space();
    if (s.i >= n || f[s.i] != '{')
        return std::nullopt;
    ++s.i;
    Envelope e;
    auto end = [&]() -> std::optional<Envelope> { // after the closing brace: only space may follow
        ++s.i;
        s.space();
        if (s.i != n)
            return std::nullopt;
        return e;
    };
    s.space();
    if (s.i < n && f[s.i] == '}')
        return end();
    for (;;) {
        s.space();
        if (s.i >= n || f[s.i] != '"')
            return std::nullopt;
        const qsizetype keyStart = s.i;
        bool escaped = false;
        if (!s.string(&escaped))
            return std::nullopt;
        QByteArrayView key = frame.sliced(keyStart + 1, s.i - 2 - keyStart);
        QByteArray decoded;
        if (escaped) {
            // "\u0069d" is "id" to the parser, so it must be here too.
            decoded = QJsonDocument::fromJson(
                          '[' + frame.sliced(keyStart, s.i - keyStart).toByteArray() + ']')
                          .array()
                          .at(0)
                          .toString()
                          .toUtf8();
            key = decoded;
        }
        s.space();
        if (s.i >= n || f[s.i] != ':')
            return std::nullopt;
        ++s.i;
        s.space();
        const qsizetype valueStart = s.i;
        if (!s.value(1))
            return std::nullopt;
        if (key == "method" || key == "id") {
            // A scalar (or nearly): the real parser reads it, so values compare exactly as
            // parsed ones do, unless it is one the parser reads one way only (every frame
            // Sonde sends). As in the parser, the last of repeated keys wins.
            const QByteArrayView text = frame.sliced(valueStart, s.i - valueStart);
            QJsonValue value;
            if (const auto plain = plainScalar(text)) {
                value = *plain;
            } else {
                const QJsonDocument one = QJsonDocument::fromJson('[' + text.toByteArray() + ']');
                if (!one.isArray())
                    return std::nullopt;
                value = one.array().at(0);
            }
            if (key == "id") {
                e.id = value;
            } else {
                e.hasMethod = true;
                e.method = value.toString();
            }
        }
        s.space();
        if (s.i < n && f[s.i] == ',') {
            ++s.i;
            continue;
        }
        if (s.i < n && f[s.i] == '}')
            return end();
        return std::nullopt;
    }
}

QString JsonRpcMessage::idText(const QJsonValue &id)
{
    if (id.isString())
        return id.toString();
    if (!id.isDouble())
        return {};
    // toInteger keeps an integer Qt's parser holds exactly (beyond 2^53 too).
    const double d = id.toDouble();
    return isInt64(d) ? QString::number(id.toInteger()) : QString::number(d, 'g', 17);
}

QString JsonRpcMessage::idKey(const QJsonValue &id)
{
    if (id.isString())
        return "s:"_L1 + id.toString();
    if (id.isDouble()) {
        const double d = id.toDouble();
        return "n:"_L1 + (isInt64(d) ? QString::number(qint64(d)) : QString::number(d, 'g', 17));
    }
    return u"null"_s;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

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

JsonRpcMessage JsonRpcMessage::errorResponse(const QJsonValue &id, int code,
                                             const QString &message, const QJsonValue &data)
{
    JsonRpcMessage m;
    m.m_type = Type::ErrorResponse;
    m.m_id = id;
    m.m_errorCode = code;
    m.m_errorMessage = message;
    m.m_errorData = data;
    return m;
}

static bool validId(const QJsonValue &id)
{
    return id.isString() || (id.isDouble() && id.toDouble() == double(qint64(id.toDouble())));
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
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(frame, &pe);
    if (pe.error != QJsonParseError::NoError) {
        out.error = Error::protocol(u"not JSON (%1 at byte %2)"_s.arg(pe.errorString()).arg(pe.offset));
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

QByteArray JsonRpcMessage::toCompactJson() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

std::optional<JsonRpcMessage::Envelope> JsonRpcMessage::peekEnvelope(QByteArrayView f)
{
    const qsizetype n = f.size();
    qsizetype i = 0;
    auto space = [&] {
        while (i < n && (f[i] == ' ' || f[i] == '\t' || f[i] == '\n' || f[i] == '\r'))
            ++i;
    };
    auto skipString = [&] { // at the opening quote; true when the closing one was passed
        for (++i; i < n; ++i) {
            if (f[i] == '\\')
                ++i;
            else if (f[i] == '"')
                return ++i, true;
        }
        return false;
    };
    auto skipValue = [&] {
        if (i >= n)
            return false;
        if (f[i] == '"')
            return skipString();
        if (f[i] == '{' || f[i] == '[') {
            int depth = 0;
            while (i < n) {
                const char c = f[i];
                if (c == '"') {
                    if (!skipString())
                        return false;
                    continue;
                }
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0)
                    return ++i, true;
                ++i;
            }
            return false;
        }
        const qsizetype start = i; // a number or a literal
        while (i < n && f[i] != ',' && f[i] != '}' && f[i] != ']' && f[i] != ' ' && f[i] != '\t'
               && f[i] != '\n' && f[i] != '\r')
            ++i;
        return i > start;
    };

    space();
    if (i >= n || f[i] != '{')
        return std::nullopt;
    ++i;
    Envelope e;
    space();
    if (i < n && f[i] == '}')
        return e;
    for (;;) {
        space();
        if (i >= n || f[i] != '"')
            return std::nullopt;
        const qsizetype keyStart = i + 1;
        if (!skipString())
            return std::nullopt;
        const QByteArrayView key = f.sliced(keyStart, i - 1 - keyStart);
        space();
        if (i >= n || f[i] != ':')
            return std::nullopt;
        ++i;
        space();
        const qsizetype valueStart = i;
        if (!skipValue())
            return std::nullopt;
        if (key == "method" || key == "id") {
            // A scalar (or nearly): the real parser reads it, so values compare exactly as
            // parsed ones do.
            const QJsonDocument one = QJsonDocument::fromJson("[" + f.sliced(valueStart, i - valueStart).toByteArray() + "]");
            if (!one.isArray())
                return std::nullopt;
            if (key == "id") {
                e.id = one.array().at(0);
            } else {
                e.hasMethod = true;
                e.method = one.array().at(0).toString();
            }
        }
        space();
        if (i < n && f[i] == ',') {
            ++i;
            continue;
        }
        if (i < n && f[i] == '}')
            return e;
        return std::nullopt;
    }
}

QString JsonRpcMessage::idKey(const QJsonValue &id)
{
    if (id.isString())
        return "s:"_L1 + id.toString();
    if (id.isDouble())
        return "n:"_L1 + QString::number(qint64(id.toDouble()));
    return u"null"_s;
}

} // namespace Sonde

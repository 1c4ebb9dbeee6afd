// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/limits.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// One JSON-RPC 2.0 message as a value: request, notification, response or error response.
// Immutable in practice; cheap to copy (QJson* are implicitly shared).
class JsonRpcMessage
{
public:
    enum class Type
    {
        Invalid,
        Request,
        Notification,
        Response,
        ErrorResponse
    };

    static JsonRpcMessage request(const QJsonValue &id, const QString &method,
                                  const QJsonObject &params = {});
    static JsonRpcMessage notification(const QString &method, const QJsonObject &params = {});
    static JsonRpcMessage response(const QJsonValue &id, const QJsonValue &result);
    static JsonRpcMessage errorResponse(const QJsonValue &id, int code, const QString &message,
                                        const QJsonValue &data = {});

    // The result of parsing one frame: the messages it held (a JSON-RPC batch holds several)
    // or a protocol error saying exactly what was wrong with it. A frame nested deeper than
    // Limits::MaxJsonDepth is refused before parsing, with an error naming the limit.
    struct Parsed
    {
        QList<JsonRpcMessage> messages;
        Error error;
    };
    static Parsed parse(const QByteArray &frame);

    // What a transport needs to route a frame, read without parsing it: the top-level
    // object's "method" (hasMethod, and its name when it is a string), and its "id"
    // (undefined when absent). Only the top level is
    // walked (nested values are checked, not built), so a 50 MB answer costs one scan, not a
    // second parse. Empty for anything but a single JSON object (a batch), and for anything
    // parse() would refuse as JSON (mismatched brackets, bad strings or numbers, trailing
    // bytes, nesting over the depth limit): parse() it then.
    struct Envelope
    {
        bool hasMethod = false;
        QString method;
        QJsonValue id = QJsonValue(QJsonValue::Undefined);
    };
    static std::optional<Envelope> peekEnvelope(QByteArrayView frame);
    // The id of the response whose first bytes these are (a frame cut short because it was
    // over a size limit), when it is written before "result" or "error", as every SDK
    // writes it; nothing otherwise. Only a top-level integer or string id counts.
    static std::optional<QJsonValue> leadingId(QByteArrayView head);
    static JsonRpcMessage fromJson(const QJsonObject &object, Error *error);
    // How deeply objects and arrays nest in `text` (0 for a scalar), counting brackets
    // outside strings only; one fast pass, whether or not the text is valid JSON.
    static int jsonDepth(QByteArrayView text);

    Type type() const { return m_type; }
    bool isRequest() const { return m_type == Type::Request; }
    bool isNotification() const { return m_type == Type::Notification; }
    bool isResponse() const { return m_type == Type::Response || m_type == Type::ErrorResponse; }

    QJsonValue id() const { return m_id; }
    QString method() const { return m_method; }
    QJsonObject params() const { return m_params; }
    QJsonValue result() const { return m_result; }
    int errorCode() const { return m_errorCode; }
    QString errorMessage() const { return m_errorMessage; }
    QJsonValue errorData() const { return m_errorData; }
    // The error response as an Error value of kind Remote.
    Error toError() const;

    QJsonObject toJson() const;
    // Compact JSON without a trailing newline: one stdio frame.
    QByteArray toCompactJson() const;

    // A stable key for pairing responses with requests: "n:5" for numbers, "s:abc" for
    // strings, so 5 and "5" are different ids as JSON-RPC says they are.
    static QString idKey(const QJsonValue &id);
    // An id as people read it ("5", "abc"), in tables, summaries and exports; empty for none
    // (absent, null). A number outside qint64, or not whole, is written as JSON would, never
    // cast (the undefined behaviour the fuzzer found).
    static QString idText(const QJsonValue &id);

private:
    Type m_type = Type::Invalid;
    QJsonValue m_id;
    QString m_method;
    QJsonObject m_params;
    QJsonValue m_result;
    int m_errorCode = 0;
    QString m_errorMessage;
    QJsonValue m_errorData;
};

namespace JsonRpcCode {
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int InternalError = -32603;
} // namespace JsonRpcCode

} // namespace Sonde

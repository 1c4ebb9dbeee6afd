// SPDX-License-Identifier: MIT
#include "rev20260728headervalidator.h"

#include "demoprotocol.h"
#include "protocol/jsonrpcmessage.h"

#include <QJsonValue>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<QString> Rev20260728HeaderValidator::decodeValue(const QByteArray &raw)
{
    for (const char c : raw)
        if ((uchar(c) < 0x20 && c != '\t') || uchar(c) > 0x7e)
            return std::nullopt;
    if (raw.startsWith("=?base64?") && raw.endsWith("?=") && raw.size() >= 11) {
        const auto decoded = QByteArray::fromBase64Encoding(
            raw.mid(9, raw.size() - 11), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return std::nullopt;
        return QString::fromUtf8(*decoded);
    }
    return QString::fromLatin1(raw);
}

// Whether a header's text stands for the body's value: strings as they are, integers
// numerically (42 and 42.0 agree), booleans as true / false.
static bool sameValue(const QString &text, const QJsonValue &body)
{
    if (body.isString())
        return text == body.toString();
    if (body.isBool())
        return text == (body.toBool() ? "true"_L1 : "false"_L1);
    if (body.isDouble()) {
        bool ok = false;
        const double n = text.toDouble(&ok);
        return ok && std::isfinite(n) && n == body.toDouble();
    }
    return false;
}

// The x-mcp-header annotations reachable through `properties` alone, with the argument
// path that feeds each.
static void collectParamHeaders(const QJsonObject &schema, const QStringList &path,
                                QList<QPair<QString, QStringList>> *out)
{
    const QJsonObject properties = schema.value("properties"_L1).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonObject property = it.value().toObject();
        const QStringList here = path + QStringList{it.key()};
        if (property.value("x-mcp-header"_L1).isString())
            out->append({property.value("x-mcp-header"_L1).toString(), here});
        collectParamHeaders(property, here, out);
    }
}

QString Rev20260728HeaderValidator::check(const QHash<QByteArray, QByteArray> &headers,
                                          const JsonRpcMessage &m, const QJsonObject &tool)
{
    const QJsonObject params = m.params();
    auto mismatch = [&](const QString &header, const QString &expected) -> QString {
        if (!headers.contains(header.toLower().toLatin1()))
            return u"Header mismatch: the %1 header is missing"_s.arg(header);
        const std::optional<QString> value =
            decodeValue(headers.value(header.toLower().toLatin1()));
        if (!value)
            return u"Header mismatch: the %1 header has characters a header value may not carry"_s
                .arg(header);
        if (*value != expected)
            return u"Header mismatch: %1 header value '%2' does not match body value '%3'"_s.arg(
                header, *value, expected);
        return {};
    };
    const QString version =
        params.value("_meta"_L1).toObject().value(DemoProtocol::ProtocolVersionKey).toString();
    if (QString why = mismatch(u"MCP-Protocol-Version"_s, version); !why.isEmpty())
        return why;
    if (QString why = mismatch(u"Mcp-Method"_s, m.method()); !why.isEmpty())
        return why;
    const QString method = m.method();
    if (method == "tools/call"_L1 || method == "prompts/get"_L1 || method == "resources/read"_L1) {
        const QString name =
            params.value(method == "resources/read"_L1 ? "uri"_L1 : "name"_L1).toString();
        if (QString why = mismatch(u"Mcp-Name"_s, name); !why.isEmpty())
            return why;
    }
    if (method != "tools/call"_L1)
        return {};
    QList<QPair<QString, QStringList>> annotated;
    collectParamHeaders(tool.value("inputSchema"_L1).toObject(), {}, &annotated);
    const QJsonObject arguments = params.value("arguments"_L1).toObject();
    for (const auto &[name, path] : std::as_const(annotated)) {
        QJsonValue value = arguments;
        for (const QString &key : path)
            value = value.toObject().value(key);
        // No value, no header to expect (a null counts as none).
        if (value.isUndefined() || value.isNull())
            continue;
        const QString header = u"Mcp-Param-"_s + name;
        const QByteArray key = header.toLower().toLatin1();
        if (!headers.contains(key))
            return u"Header mismatch: the %1 header is missing"_s.arg(header);
        const std::optional<QString> text = decodeValue(headers.value(key));
        if (!text)
            return u"Header mismatch: the %1 header has characters a header value may not carry"_s
                .arg(header);
        if (!sameValue(*text, value))
            return u"Header mismatch: %1 header value '%2' does not match the argument %3"_s.arg(
                header, *text, path.join(u'.'));
    }
    return {};
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "protocol/mcpheaders.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Sonde {

static bool isTchar(QChar c)
{
    // RFC 9110 §5.6.2 token characters.
    static const QString specials = u"!#$%&'*+-.^_`|~"_s;
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
           specials.contains(c);
}

static bool isToken(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (QChar c : s)
        if (!isTchar(c))
            return false;
    return true;
}

// Keywords through which a property is not statically reachable.
static const QStringList &unreachableKeywords()
{
    static const QStringList k = {u"items"_s,
                                  u"prefixItems"_s,
                                  u"additionalProperties"_s,
                                  u"patternProperties"_s,
                                  u"oneOf"_s,
                                  u"anyOf"_s,
                                  u"allOf"_s,
                                  u"not"_s,
                                  u"if"_s,
                                  u"then"_s,
                                  u"else"_s,
                                  u"$defs"_s,
                                  u"definitions"_s,
                                  u"contains"_s,
                                  u"dependentSchemas"_s};
    return k;
}

namespace {
struct Walk
{
    QList<McpHeaders::Param> params;
    QSet<QString> seen; // lowercased names
    QString why;
    int nodes = 0;
};
} // namespace

static bool walk(const QJsonObject &schema, const QStringList &path, bool reachable, Walk &w)
{
    if (++w.nodes > 10'000) {
        w.why = u"the inputSchema is too deep to check"_s;
        return false;
    }
    const QString where = path.isEmpty() ? u"the schema root"_s : path.join(u'.');
    if (schema.contains("x-mcp-header"_L1)) {
        const QJsonValue v = schema.value("x-mcp-header"_L1);
        const QString name = v.toString();
        if (!reachable || path.isEmpty()) {
            w.why =
                u"x-mcp-header at %1 is not reachable through \"properties\" alone"_s.arg(where);
            return false;
        }
        if (!v.isString() || !isToken(name)) {
            w.why = u"x-mcp-header at %1 is not an HTTP token"_s.arg(where);
            return false;
        }
        const QString type = schema.value("type"_L1).toString();
        if (type != "string"_L1 && type != "integer"_L1 && type != "boolean"_L1) {
            w.why = u"x-mcp-header at %1 is on a %2, not a string, integer or boolean"_s.arg(
                where, type.isEmpty() ? u"value without a type"_s : type);
            return false;
        }
        if (w.seen.contains(name.toLower())) {
            w.why = u"x-mcp-header \"%1\" is used twice"_s.arg(name);
            return false;
        }
        w.seen.insert(name.toLower());
        w.params.append({path, "Mcp-Param-" + name.toLatin1(), type});
    }
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        if (it.key() == "properties"_L1) {
            const QJsonObject props = it.value().toObject();
            for (auto p = props.begin(); p != props.end(); ++p)
                if (p.value().isObject() &&
                    !walk(p.value().toObject(), path + QStringList{p.key()}, reachable, w))
                    return false;
        } else if (unreachableKeywords().contains(it.key())) {
            // Annotations below these are invalid: walk them only to find one.
            const QJsonValue v = it.value();
            const QJsonArray many = v.isArray() ? v.toArray() : QJsonArray{v};
            for (const QJsonValue &sub : many) {
                if (!sub.isObject())
                    continue;
                const QJsonObject o = sub.toObject();
                if (it.key() == "$defs"_L1 || it.key() == "definitions"_L1 ||
                    it.key() == "patternProperties"_L1 || it.key() == "dependentSchemas"_L1) {
                    for (auto d = o.begin(); d != o.end(); ++d)
                        if (d.value().isObject() &&
                            !walk(d.value().toObject(), path + QStringList{it.key()}, false, w))
                            return false;
                } else if (!walk(o, path + QStringList{it.key()}, false, w)) {
                    return false;
                }
            }
        }
    }
    return true;
}

std::optional<QList<McpHeaders::Param>> McpHeaders::paramsOf(const QJsonObject &inputSchema,
                                                             QString *why)
{
    Walk w;
    if (!walk(inputSchema, {}, true, w)) {
        if (why)
            *why = w.why;
        return std::nullopt;
    }
    return w.params;
}

bool McpHeaders::isSafeHeaderText(const QString &text)
{
    // Visible ASCII and space only. A tab is field-value text in RFC 9110, but intermediaries
    // (and the conformance suite) treat any control character as unsafe; base64 is never
    // wrong, since servers decode before comparing.
    if (text.isEmpty())
        return true;
    if (text.front().isSpace() || text.back().isSpace())
        return false;
    if (text.startsWith("=?base64?"_L1) && text.endsWith("?="_L1))
        return false; // would read as already encoded
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u > 0x7e)
            return false;
    }
    return true;
}

QByteArray McpHeaders::encodeValue(const QString &text)
{
    if (text.isEmpty())
        return QByteArray(""); // sent as an empty value: a null QByteArray would drop the header
    if (isSafeHeaderText(text))
        return text.toLatin1();
    return "=?base64?" + text.toUtf8().toBase64() + "?=";
}

static std::optional<QString> headerText(const QJsonValue &v, const QString &type)
{
    if (type == "string"_L1 && v.isString())
        return v.toString();
    if (type == "boolean"_L1 && v.isBool())
        return v.toBool() ? u"true"_s : u"false"_s;
    if (type == "integer"_L1 && v.isDouble()) {
        const double d = v.toDouble();
        if (d != double(qint64(d)))
            return std::nullopt;
        return QString::number(qint64(d));
    }
    return std::nullopt; // null, absent or of another type: the header is omitted
}

bool McpHeaders::needsParams(const QString &method)
{
    return method == "tools/call"_L1 || method == "resources/read"_L1 || method == "prompts/get"_L1;
}

McpHeaders::List McpHeaders::forRequest(const QString &protocolVersion, const QString &method,
                                        const QJsonObject &params, const ToolParams &toolParams)
{
    List h;
    h.append({"MCP-Protocol-Version", protocolVersion.toLatin1()});
    h.append({"Mcp-Method", encodeValue(method)});
    if (!needsParams(method))
        return h;
    if (method == "tools/call"_L1 || method == "prompts/get"_L1) {
        h.append({"Mcp-Name", encodeValue(params.value("name"_L1).toString())});
    } else if (method == "resources/read"_L1) {
        h.append({"Mcp-Name", encodeValue(params.value("uri"_L1).toString())});
    }
    if (method != "tools/call"_L1)
        return h;
    const auto it = toolParams.constFind(params.value("name"_L1).toString());
    if (it == toolParams.constEnd())
        return h;
    const QJsonObject args = params.value("arguments"_L1).toObject();
    for (const Param &p : *it) {
        QJsonValue v = args;
        for (const QString &key : p.path)
            v = v.toObject().value(key);
        if (const std::optional<QString> text = headerText(v, p.type))
            h.append({p.header, encodeValue(*text)});
    }
    return h;
}

} // namespace Sonde

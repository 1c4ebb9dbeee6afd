// SPDX-License-Identifier: MIT
#include "callexpectation.h"

#include "protocol/jsonschemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

static QString shown(const QJsonValue &v)
{
    // A quoted excerpt: a reason is one line in a report, not the whole answer.
    QString text =
        v.isString()
            ? u"\"%1\""_s.arg(v.toString())
            : QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                  .mid(1)
                  .chopped(1);
    if (text.size() > 200)
        text = text.left(200) + u"…"_s;
    return text;
}

std::optional<CallExpectation> CallExpectation::fromJson(const QJsonValue &expect, bool toolCall,
                                                         QString *error)
{
    CallExpectation e;
    if (expect.isUndefined())
        return e;
    if (!expect.isObject()) {
        *error = u"\"expect\" must be an object"_s;
        return std::nullopt;
    }
    const QJsonObject o = expect.toObject();
    static const QStringList known = {
        u"text_contains"_s,         u"is_error"_s, u"pointer"_s, u"equals"_s,
        u"matches_output_schema"_s, u"max_ms"_s};
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!known.contains(it.key())) {
            *error = u"\"expect\" has an unknown field \"%1\" (known: %2)"_s.arg(
                it.key(), known.join(u", "_s));
            return std::nullopt;
        }
    }
    auto bad = [error](const QString &field, const QString &want) {
        *error = u"\"expect.%1\" must be %2"_s.arg(field, want);
        return std::nullopt;
    };
    if (o.contains("text_contains"_L1)) {
        if (!o.value("text_contains"_L1).isString())
            return bad(u"text_contains"_s, u"a string"_s);
        e.m_textContains = o.value("text_contains"_L1).toString();
    }
    if (o.contains("is_error"_L1)) {
        if (!o.value("is_error"_L1).isBool())
            return bad(u"is_error"_s, u"true or false"_s);
        e.m_isError = o.value("is_error"_L1).toBool();
    }
    if (o.contains("pointer"_L1) != o.contains("equals"_L1))
        return bad(o.contains("pointer"_L1) ? u"equals"_s : u"pointer"_s,
                   u"given with the other: \"pointer\" names a value, \"equals\" says what it "
                   u"should be"_s);
    if (o.contains("pointer"_L1)) {
        const QJsonValue p = o.value("pointer"_L1);
        if (!p.isString() || (!p.toString().isEmpty() && !p.toString().startsWith(u'/')))
            return bad(u"pointer"_s, u"a JSON pointer: \"\" or a string starting with \"/\""_s);
        e.m_pointer = p.toString();
        e.m_equals = o.value("equals"_L1);
    }
    if (o.contains("matches_output_schema"_L1)) {
        if (!o.value("matches_output_schema"_L1).isBool())
            return bad(u"matches_output_schema"_s, u"true or false"_s);
        e.m_matchesOutputSchema = o.value("matches_output_schema"_L1).toBool();
        if (e.m_matchesOutputSchema && !toolCall)
            return bad(u"matches_output_schema"_s,
                       u"used with a \"tool\" call (only tools declare an outputSchema)"_s);
    }
    if (o.contains("max_ms"_L1)) {
        const double ms = o.value("max_ms"_L1).toDouble(-1);
        if (!o.value("max_ms"_L1).isDouble() || ms <= 0 || ms != double(qint64(ms)))
            return bad(u"max_ms"_s, u"a whole number of milliseconds > 0"_s);
        e.m_maxMs = qint64(ms);
    }
    return e;
}

std::optional<QJsonValue> CallExpectation::resolvePointer(const QJsonValue &root,
                                                          const QString &pointer)
{
    if (pointer.isEmpty())
        return root;
    if (!pointer.startsWith(u'/'))
        return std::nullopt;
    QJsonValue at = root;
    for (QString token : pointer.mid(1).split(u'/')) {
        token.replace("~1"_L1, "/"_L1).replace("~0"_L1, "~"_L1);
        if (at.isObject()) {
            const QJsonObject o = at.toObject();
            if (!o.contains(token))
                return std::nullopt;
            at = o.value(token);
        } else if (at.isArray()) {
            bool ok = false;
            const qsizetype i = token.toLongLong(&ok);
            const QJsonArray a = at.toArray();
            // RFC 6901: decimal digits without a leading zero.
            if (!ok || i < 0 || i >= a.size() || (token.size() > 1 && token.startsWith(u'0')) ||
                token.startsWith(u'+'))
                return std::nullopt;
            at = a.at(i);
        } else {
            return std::nullopt;
        }
    }
    return at;
}

QString CallExpectation::answerText(const Answer &a)
{
    if (a.rpcError)
        return a.errorMessage;
    if (a.toolCall) {
        QStringList texts;
        for (const QJsonValue &block : a.result.toObject().value("content"_L1).toArray())
            if (block.toObject().value("type"_L1).toString() == "text"_L1)
                texts.append(block.toObject().value("text"_L1).toString());
        return texts.join(u'\n');
    }
    return QString::fromUtf8(QJsonDocument(a.result.toObject()).toJson(QJsonDocument::Compact));
}

QStringList CallExpectation::check(const Answer &a) const
{
    QStringList reasons;
    const bool toolError = a.toolCall && a.result.toObject().value("isError"_L1).toBool();
    const bool isError = a.rpcError || toolError;
    const QString text = answerText(a);
    if (m_isError && *m_isError != isError) {
        reasons.append(*m_isError ? u"expected an error, got a result"_s
                                  : u"expected no error, got: %1"_s.arg(shown(text)));
    } else if (!m_isError && isError) {
        // Unless the call says it expects one, an error answer is a failure.
        reasons.append(u"the server answered with an error: %1"_s.arg(shown(text)));
    }
    if (m_textContains && !text.contains(*m_textContains))
        reasons.append(u"the answer's text does not contain %1 (it is %2)"_s.arg(
            shown(*m_textContains), shown(text)));
    if (m_pointer) {
        const std::optional<QJsonValue> got =
            a.rpcError ? std::nullopt : resolvePointer(a.result, *m_pointer);
        if (!got)
            reasons.append(u"nothing at %1 in the result"_s.arg(
                m_pointer->isEmpty() ? u"\"\" (the whole result)"_s : *m_pointer));
        else if (*got != m_equals)
            reasons.append(
                u"%1 is %2, expected %3"_s.arg(*m_pointer, shown(*got), shown(m_equals)));
    }
    if (m_matchesOutputSchema) {
        const QJsonObject result = a.result.toObject();
        if (!a.outputSchema)
            reasons.append(u"the tool declares no outputSchema in tools/list"_s);
        else if (!result.contains("structuredContent"_L1))
            reasons.append(u"the result has no structuredContent to check against the "
                           u"outputSchema"_s);
        else
            for (const auto &v : JsonSchemaValidator::validate(result.value("structuredContent"_L1),
                                                               *a.outputSchema))
                reasons.append(
                    u"structuredContent does not match the outputSchema: %1"_s.arg(v.text()));
    }
    if (m_maxMs && a.elapsedMs > *m_maxMs)
        reasons.append(u"took %1 ms, more than max_ms %2"_s.arg(a.elapsedMs).arg(*m_maxMs));
    return reasons;
}

} // namespace Sonde

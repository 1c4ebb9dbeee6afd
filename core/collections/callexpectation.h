// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// What a collection's call expects of its answer (docs/collections.md): text_contains,
// is_error, pointer + equals, matches_output_schema, max_ms. Parsed from the call's "expect"
// object; check() says why an answer falls short, one reason per failed expectation.
class CallExpectation
{
public:
    // The answer as check() sees it.
    struct Answer
    {
        QJsonValue result;     // the JSON-RPC result (a tools/call's CallToolResult)
        bool rpcError = false; // a JSON-RPC error (or no answer at all)
        QString errorMessage;  // with rpcError
        bool toolCall = false; // a tools/call: isError and the text blocks mean something
        qint64 elapsedMs = 0;
        // The tool's outputSchema from tools/list; unset when the tool declares none.
        std::optional<QJsonObject> outputSchema;
    };

    // `expect` absent (undefined) is an empty expectation: the call must answer without an
    // error. On a bad field returns nullopt and says which field and why in `error`.
    static std::optional<CallExpectation> fromJson(const QJsonValue &expect, bool toolCall,
                                                   QString *error);

    // The reasons the answer fails; empty when every expectation holds.
    QStringList check(const Answer &answer) const;
    bool needsOutputSchema() const { return m_matchesOutputSchema; }

    // RFC 6901: the value `pointer` names in `root`, nullopt when nothing is there.
    static std::optional<QJsonValue> resolvePointer(const QJsonValue &root, const QString &pointer);
    // What text_contains searches: a tool's text blocks joined by newlines, a JSON-RPC
    // error's message, otherwise the result as compact JSON.
    static QString answerText(const Answer &answer);

private:
    std::optional<QString> m_textContains;
    std::optional<bool> m_isError;
    std::optional<QString> m_pointer;
    QJsonValue m_equals;
    bool m_matchesOutputSchema = false;
    std::optional<qint64> m_maxMs;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once
// The JSON shapes the demo server's tools build again and again.

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace Sonde::DemoJson {

using namespace Qt::StringLiterals;

inline QJsonObject textContent(const QString &text)
{
    return {{"type"_L1, "text"_L1}, {"text"_L1, text}};
}

inline QJsonObject textResult(const QString &text, bool isError = false)
{
    QJsonObject r{{"content"_L1, QJsonArray{textContent(text)}}};
    if (isError)
        r.insert("isError"_L1, true);
    return r;
}

inline QJsonObject annotations(bool readOnly, bool destructive, bool idempotent,
                               bool openWorld = false)
{
    return {{"readOnlyHint"_L1, readOnly},
            {"destructiveHint"_L1, destructive},
            {"idempotentHint"_L1, idempotent},
            {"openWorldHint"_L1, openWorld}};
}

inline QJsonObject schema(const QJsonObject &properties, const QJsonArray &required = {})
{
    QJsonObject s{{"type"_L1, "object"_L1}, {"properties"_L1, properties}};
    if (!required.isEmpty())
        s.insert("required"_L1, required);
    return s;
}

} // namespace Sonde::DemoJson

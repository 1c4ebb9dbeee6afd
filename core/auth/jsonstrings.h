// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QStringList>

namespace Sonde {

// The strings of a metadata document's array member (scopes_supported, authorization_servers,
// ...); anything not a string is skipped, as RFC 8414 and RFC 9728 leave unknown values out.
inline QStringList jsonStrings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        if (v.isString())
            out.append(v.toString());
    return out;
}

} // namespace Sonde

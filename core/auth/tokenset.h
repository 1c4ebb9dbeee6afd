// SPDX-License-Identifier: MIT
#pragma once

#include "auth/clientidentity.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace Sonde {

// What one server's authorization leaves behind: the tokens and the identity they were
// issued to, as stored in the SecretStore under "oauth/<server>" (JSON, only ever written to
// the store). Value; engine thread.
struct TokenSet
{
    QString accessToken;
    QString refreshToken;
    qint64 expiresAtMs = 0; // 0: no expiry given
    QStringList scopes;
    QString resource;
    QUrl tokenEndpoint;
    ClientIdentity identity;

    bool isEmpty() const { return accessToken.isEmpty(); }
    QByteArray toStored() const;
    static std::optional<TokenSet> fromStored(const QByteArray &bytes);
    static QString storeKey(const QString &server) { return QStringLiteral("oauth/") + server; }
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "auth/clientidentity.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde {

// A token endpoint request (OAuth 2.1 §4.1.3, §4.3; RFC 8707 `resource`) with the client
// authentication its identity uses: client_secret_basic (RFC 6749 §2.3.1: form-encoded id and
// secret in a Basic header), client_secret_post (both in the body) or none (client_id only),
// and the reading of its answer. Value; any thread.
struct TokenRequest
{
    QByteArray form;  // application/x-www-form-urlencoded
    QByteArray basic; // Authorization header value, or empty

    static TokenRequest authorizationCode(const ClientIdentity &identity, const QString &code,
                                          const QUrl &redirectUri, const QByteArray &verifier,
                                          const QString &resource);
    static TokenRequest refresh(const ClientIdentity &identity, const QString &refreshToken,
                                const QString &resource, const QStringList &scopes);

    struct Grant
    {
        QString accessToken;
        QString refreshToken;
        qint64 expiresInSeconds = 0;
        QStringList scopes; // empty: as requested (RFC 6749 §5.1)
        QString error;      // in words; empty on success
        QString oauthError; // the server's `error` code (invalid_grant ...)
    };
    // The answer of a token endpoint: HTTP status, content type and body.
    static Grant readAnswer(int status, const QByteArray &contentType, const QByteArray &body);

private:
    static TokenRequest withClient(const ClientIdentity &identity,
                                   QList<QPair<QString, QString>> items);
};

} // namespace Sonde

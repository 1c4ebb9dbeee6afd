// SPDX-License-Identifier: MIT
#pragma once

#include "demohttpmessage.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <optional>

namespace Sonde {

class Clock;

// The demo's own OAuth 2.1 authorization server, for `--http ... --auth` (docs/auth.md): its
// RFC 8414 metadata at /.well-known/oauth-authorization-server (the issuer is the origin),
// dynamic client registration (RFC 7591, loopback redirect URIs only) at /register, an
// /authorize that redirects at once with code, state and iss (RFC 9207; a demo has no login
// page), and /token for authorization_code (one-time codes, PKCE S256, redirect_uri and
// resource checked, client authentication as registered) and rotating refresh tokens.
// Tokens are opaque and random; they live `tokenTtlMs` on the clock. For tests:
// POST /admin/revoke (loopback peers only) revokes every token, code and refresh token;
// GET /admin/stats counts what reached each endpoint. Thread: the server's; owned by
// DemoHttpServer.
class DemoAuthServer : public QObject
{
    Q_OBJECT
public:
    // What the protected resource learns of a bearer token.
    struct TokenCheck
    {
        bool valid = false;
        QString why; // !valid: in words (unknown, expired, revoked)
        QSet<QString> scopes;
    };
    // What reached the endpoints, so a test can prove nothing was sent twice.
    struct Stats
    {
        int metadataRequests = 0, registrationRequests = 0, authorizationRequests = 0,
            tokenRequests = 0, refused401 = 0, refused403 = 0;
    };

    DemoAuthServer(QString origin, QString resource, const Clock &clock, qint64 tokenTtlMs,
                   QObject *parent = nullptr);
    QString issuer() const { return m_origin; }
    static QStringList scopesSupported();
    // The answer when `request` is for one of the AS's paths; nullopt otherwise.
    std::optional<DemoHttpResponse> serve(const DemoHttpRequest &request);
    TokenCheck check(const QByteArray &accessToken) const;
    void noteRefusal(int status);
    Stats stats() const { return m_stats; }

private:
    struct Client
    {
        QString secret; // empty for "none"
        QString authMethod;
        QStringList redirectUris;
    };
    struct Code
    {
        QString clientId, redirectUri, challenge, resource;
        QStringList scopes;
        qint64 expiresAtMs = 0;
    };
    struct Token
    {
        QString clientId;
        QStringList scopes;
        qint64 expiresAtMs = 0; // access tokens only
        bool used = false;      // refresh tokens: rotated away
    };

    DemoHttpResponse metadata() const;
    DemoHttpResponse registerClient(const DemoHttpRequest &r);
    DemoHttpResponse authorize(const DemoHttpRequest &r);
    DemoHttpResponse token(const DemoHttpRequest &r);
    DemoHttpResponse exchangeCode(const QHash<QString, QString> &form, const QString &clientId);
    DemoHttpResponse refresh(const QHash<QString, QString> &form, const QString &clientId);
    std::optional<DemoHttpResponse> wrongTarget(const QHash<QString, QString> &form) const;
    DemoHttpResponse grant(const QString &clientId, const QStringList &scopes);
    // The client the token request authenticates as, or the error answer.
    std::optional<QString> authenticate(const DemoHttpRequest &r,
                                        const QHash<QString, QString> &form,
                                        DemoHttpResponse *refusal) const;
    bool matchesRegistered(const Client &client, const QString &redirectUri) const;
    DemoHttpResponse stats(const DemoHttpRequest &r) const;
    DemoHttpResponse revokeAll(const DemoHttpRequest &r);

    QString m_origin, m_resource;
    const Clock &m_clock;
    qint64 m_ttlMs;
    QHash<QString, Client> m_clients;
    QHash<QString, Code> m_codes;
    QHash<QString, Token> m_accessTokens, m_refreshTokens;
    QSet<QString> m_revoked; // access and refresh tokens revoked by /admin/revoke
    Stats m_stats;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QUrl>

#include <optional>

namespace Sonde {

// One step of an authorization flow as the user sees it (docs/auth.md): which request went
// where, what came back, what was chosen and why. Values only: it crosses from the engine to
// the front ends and into the transcript. Nothing secret is ever put in one (no token, code,
// verifier or client secret): `chosen` names a method or a URL, never a credential.
struct AuthStep
{
    // discovery: protected-resource-metadata, authorization-server-metadata
    // identity:  client-identity (pre-registered / cimd / dynamic-registration)
    // grant:     authorization, token, refresh, step-up
    QString name;
    QString method; // "GET", "POST", or empty for a decision that sent nothing
    QUrl url;       // query stripped of anything secret
    int status = 0; // HTTP status; 0: no answer, or no request
    bool ok = true;
    QString chosen; // "client_secret_basic", "https://as.example/", "mcp:read mcp:write"
    QString why;    // "scope from WWW-Authenticate", "CIMD because the AS advertises it"
    QString error;  // in words, when !ok
    qint64 startedMs = 0;
    qint64 elapsedMs = 0;
    QJsonObject toJson() const;
    // What toJson wrote (a transcript's auth-step event).
    static AuthStep fromJson(const QJsonObject &o);
};

// Where one server's authorization stands, for the window's Authorization view, `sonde-cli
// auth status` and the snapshot. The token itself stays in the engine (and the keyring).
struct AuthState
{
    enum class Status
    {
        None,         // the server never asked for authorization
        Discovering,  // a flow is running (metadata, registration, token)
        AwaitingUser, // the authorization URL is open in a browser; waiting for the redirect
        Authorized,
        NeedsReauth, // refresh failed or was refused: only a new flow helps
        Failed,      // the last flow failed (see `error` and the failing step)
        SignedOut,
    };
    QString server;
    Status status = Status::None;
    QString issuer;         // the authorization server in use
    QString resource;       // the protected resource (RFC 8707)
    QString clientId;       // not secret; the client secret never appears here
    QString clientIdSource; // "pre-registered", "cimd", "dynamic-registration"
    QStringList scopes;     // granted
    qint64 expiresAtMs = 0; // 0: unknown / no expiry
    bool hasRefreshToken = false;
    QString secretStore;   // where the tokens live: "keyring", "memory", "encrypted-file"
    QString error;         // in words
    QUrl authorizationUrl; // while AwaitingUser: what to open (carries no secret: PKCE S256)
    QList<AuthStep> steps; // the last flow, in order
    static QString statusName(Status status);
    // None for a name this build does not know.
    static Status statusFromName(QStringView name);
    QJsonObject toJson() const;
    // What toJson wrote (a transcript's auth-state event, which leaves the steps out).
    static AuthState fromJson(const QJsonObject &o);
};

// What the user asks of a server's authorization (CoreHost::auth, docs/auth.md); the name
// is the CLI's and the transcript's.
enum class AuthAction
{
    Login,
    Refresh,
    SignOut,
    Status
};
QString authActionName(AuthAction action); // "login", "refresh", "sign-out", "status"
std::optional<AuthAction> authActionFromName(QStringView name);

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::AuthStep)
Q_DECLARE_METATYPE(Sonde::AuthState)

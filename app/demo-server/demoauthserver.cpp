// SPDX-License-Identifier: MIT
#include "demoauthserver.h"

#include "util/clock.h"

#include <QCryptographicHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr qint64 CodeLifetimeMs = 60'000;
static const QStringList AuthMethods{u"client_secret_basic"_s, u"client_secret_post"_s, u"none"_s};
static const QStringList GrantTypes{u"authorization_code"_s, u"refresh_token"_s};

static QString randomToken(int bytes = 32)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    for (char &c : raw)
        c = char(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(
        raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

static DemoHttpResponse json(int status, const QJsonObject &o)
{
    DemoHttpResponse r;
    r.status = status;
    r.body = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return r;
}

// An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2).
static DemoHttpResponse oauthError(int status, const QString &error, const QString &description)
{
    DemoHttpResponse r = json(status, {{"error"_L1, error}, {"error_description"_L1, description}});
    r.addHeader("Cache-Control", "no-store");
    return r;
}

// The error page for an authorization request that cannot go back on a redirect: its client
// or redirect URI is not known, so sending the browser there would be an open redirector.
static DemoHttpResponse errorPage(const QString &why)
{
    DemoHttpResponse r;
    r.status = 400;
    r.contentType = "text/plain; charset=utf-8";
    r.body = "The authorization request was refused: " + why.toUtf8() + '\n';
    return r;
}

static bool isLoopbackUri(const QUrl &url)
{
    const QString host = url.host();
    return url.isValid() && (url.scheme() == "http"_L1 || url.scheme() == "https"_L1) &&
           !url.hasFragment() && (host == "localhost"_L1 || QHostAddress(host).isLoopback());
}

static QStringList stringList(const QJsonValue &v, const QStringList &fallback, bool *ok)
{
    *ok = v.isUndefined() || v.isArray();
    if (!v.isArray())
        return fallback;
    QStringList out;
    for (const QJsonValue &e : v.toArray()) {
        *ok &= e.isString();
        out.append(e.toString());
    }
    return out;
}

DemoAuthServer::DemoAuthServer(QString origin, QString resource, const Clock &clock,
                               qint64 tokenTtlMs, QObject *parent)
    : QObject(parent), m_origin(std::move(origin)), m_resource(std::move(resource)), m_clock(clock),
      m_ttlMs(tokenTtlMs)
{
}

QStringList DemoAuthServer::scopesSupported()
{
    return {u"mcp:read"_s, u"mcp:write"_s, u"offline_access"_s};
}

std::optional<DemoHttpResponse> DemoAuthServer::serve(const DemoHttpRequest &r)
{
    const QByteArray path = r.path();
    auto only = [&r](const QByteArray &method) -> std::optional<DemoHttpResponse> {
        if (r.method == method)
            return std::nullopt;
        DemoHttpResponse refusal = oauthError(405, u"invalid_request"_s,
                                              u"this endpoint takes "_s + QLatin1String(method));
        refusal.addHeader("Allow", method);
        return refusal;
    };
    if (path == "/.well-known/oauth-authorization-server") {
        ++m_stats.metadataRequests;
        return only("GET").value_or(metadata());
    }
    if (path == "/register") {
        ++m_stats.registrationRequests;
        if (auto refusal = only("POST"))
            return refusal;
        return registerClient(r);
    }
    if (path == "/authorize") {
        ++m_stats.authorizationRequests;
        if (auto refusal = only("GET"))
            return refusal;
        return authorize(r);
    }
    if (path == "/token") {
        ++m_stats.tokenRequests;
        if (auto refusal = only("POST"))
            return refusal;
        return token(r);
    }
    if (path == "/admin/stats")
        return only("GET").value_or(stats(r));
    if (path == "/admin/revoke") {
        if (auto refusal = only("POST"))
            return refusal;
        return revokeAll(r);
    }
    return std::nullopt;
}

DemoHttpResponse DemoAuthServer::metadata() const
{
    return json(
        200, {{"issuer"_L1, m_origin},
              {"authorization_endpoint"_L1, QString(m_origin + "/authorize"_L1)},
              {"token_endpoint"_L1, QString(m_origin + "/token"_L1)},
              {"registration_endpoint"_L1, QString(m_origin + "/register"_L1)},
              {"response_types_supported"_L1, QJsonArray{"code"_L1}},
              {"grant_types_supported"_L1, QJsonArray::fromStringList(GrantTypes)},
              {"code_challenge_methods_supported"_L1, QJsonArray{"S256"_L1}},
              {"token_endpoint_auth_methods_supported"_L1, QJsonArray::fromStringList(AuthMethods)},
              {"scopes_supported"_L1, QJsonArray::fromStringList(scopesSupported())},
              {"authorization_response_iss_parameter_supported"_L1, true},
              {"client_id_metadata_document_supported"_L1, false}});
}

DemoHttpResponse DemoAuthServer::registerClient(const DemoHttpRequest &r)
{
    const QJsonDocument doc = QJsonDocument::fromJson(r.body);
    if (!doc.isObject())
        return oauthError(400, u"invalid_client_metadata"_s,
                          u"the registration request is not a JSON object"_s);
    const QJsonObject o = doc.object();
    bool ok = false;
    const QStringList redirects = stringList(o.value("redirect_uris"_L1), {}, &ok);
    if (!ok || redirects.isEmpty())
        return oauthError(400, u"invalid_redirect_uri"_s,
                          u"redirect_uris must be a non-empty array of strings"_s);
    for (const QString &uri : redirects)
        if (!isLoopbackUri(QUrl(uri, QUrl::StrictMode)))
            return oauthError(400, u"invalid_redirect_uri"_s,
                              u"%1 is not a loopback redirect URI (http://127.0.0.1, "
                              "http://[::1] or http://localhost, no fragment)"_s.arg(uri));
    const QString method =
        o.value("token_endpoint_auth_method"_L1).toString(u"client_secret_basic"_s);
    if (!AuthMethods.contains(method))
        return oauthError(400, u"invalid_client_metadata"_s,
                          u"token_endpoint_auth_method must be one of "_s +
                              AuthMethods.join(", "_L1));
    const QStringList grants =
        stringList(o.value("grant_types"_L1), {u"authorization_code"_s}, &ok);
    for (const QString &g : grants)
        ok &= GrantTypes.contains(g);
    if (!ok)
        return oauthError(400, u"invalid_client_metadata"_s,
                          u"grant_types may hold authorization_code and refresh_token"_s);
    const QStringList responses = stringList(o.value("response_types"_L1), {u"code"_s}, &ok);
    if (!ok || responses != QStringList{u"code"_s})
        return oauthError(400, u"invalid_client_metadata"_s,
                          u"response_types must be [\"code\"]"_s);
    const QJsonValue appType = o.value("application_type"_L1);
    if (!appType.isUndefined() && appType != "native"_L1 && appType != "web"_L1)
        return oauthError(400, u"invalid_client_metadata"_s,
                          u"application_type must be native or web"_s);
    const QString clientId = u"demo-client-"_s + randomToken(9);
    Client client{method == "none"_L1 ? QString() : randomToken(), method, redirects};
    QJsonObject answer = o;
    answer.insert("client_id"_L1, clientId);
    answer.insert("client_id_issued_at"_L1, m_clock.nowMs() / 1000);
    answer.insert("token_endpoint_auth_method"_L1, method);
    answer.insert("grant_types"_L1, QJsonArray::fromStringList(grants));
    answer.insert("response_types"_L1, QJsonArray::fromStringList(responses));
    if (!client.secret.isEmpty()) {
        answer.insert("client_secret"_L1, client.secret);
        answer.insert("client_secret_expires_at"_L1, 0);
    }
    m_clients.insert(clientId, client);
    return json(201, answer);
}

bool DemoAuthServer::matchesRegistered(const Client &client, const QString &redirectUri) const
{
    // A loopback redirect may come back on any port (RFC 8252 §7.3, OAuth 2.1 §8.4.2): the
    // client's listener takes a free one per flow.
    const QUrl asked(redirectUri, QUrl::StrictMode);
    if (!isLoopbackUri(asked))
        return false;
    for (const QString &registered : client.redirectUris)
        if (QUrl(registered).adjusted(QUrl::RemovePort) == asked.adjusted(QUrl::RemovePort))
            return true;
    return false;
}

DemoHttpResponse DemoAuthServer::authorize(const DemoHttpRequest &r)
{
    const QHash<QString, QString> q = r.query();
    const auto client = m_clients.constFind(q.value(u"client_id"_s));
    if (client == m_clients.cend())
        return errorPage(u"client_id \"%1\" is not registered here"_s.arg(q.value(u"client_id"_s)));
    QString redirectUri = q.value(u"redirect_uri"_s);
    const bool redirectGiven = !redirectUri.isEmpty();
    if (!redirectGiven && client->redirectUris.size() == 1)
        redirectUri = client->redirectUris.first();
    if (!matchesRegistered(*client, redirectUri))
        return errorPage(
            u"redirect_uri \"%1\" is not one this client registered"_s.arg(redirectUri));
    // From here on the answer goes back on the redirect, with state and iss (RFC 9207 §2).
    auto back = [&](const QList<QPair<QString, QString>> &params) {
        QByteArray location = redirectUri.toUtf8();
        char sep = location.contains('?') ? '&' : '?';
        QList<QPair<QString, QString>> all = params;
        if (q.contains(u"state"_s))
            all.append({u"state"_s, q.value(u"state"_s)});
        all.append({u"iss"_s, m_origin});
        for (const auto &[k, v] : std::as_const(all)) {
            location += sep + QUrl::toPercentEncoding(k) + '=' + QUrl::toPercentEncoding(v);
            sep = '&';
        }
        DemoHttpResponse answer;
        answer.status = 302;
        answer.contentType = "text/plain; charset=utf-8";
        answer.body = "Redirecting to " + location + '\n';
        answer.addHeader("Location", location);
        answer.addHeader("Cache-Control", "no-store");
        return answer;
    };
    auto fail = [&](const QString &error, const QString &description) {
        return back({{u"error"_s, error}, {u"error_description"_s, description}});
    };
    if (q.value(u"response_type"_s) != "code"_L1)
        return fail(u"unsupported_response_type"_s, u"response_type must be code"_s);
    if (q.value(u"code_challenge"_s).isEmpty())
        return fail(u"invalid_request"_s, u"code_challenge is required (PKCE)"_s);
    if (q.value(u"code_challenge_method"_s) != "S256"_L1)
        return fail(u"invalid_request"_s, u"code_challenge_method must be S256"_s);
    if (q.value(u"state"_s).isEmpty())
        return fail(u"invalid_request"_s, u"state is required"_s);
    const QString resource = q.value(u"resource"_s);
    // Scheme and host compare without case (RFC 8707 §2, the spec's SHOULD); the rest exactly.
    if (QUrl(resource, QUrl::StrictMode) != QUrl(m_resource))
        return fail(u"invalid_target"_s,
                    resource.isEmpty()
                        ? u"resource is required (RFC 8707): %1"_s.arg(m_resource)
                        : u"resource %1 is not this server's (%2)"_s.arg(resource, m_resource));
    QStringList scopes = q.value(u"scope"_s).split(u' ', Qt::SkipEmptyParts);
    for (const QString &s : std::as_const(scopes))
        if (!scopesSupported().contains(s))
            return fail(u"invalid_scope"_s, u"unknown scope %1"_s.arg(s));
    if (scopes.isEmpty())
        scopes = {u"mcp:read"_s};
    const QString code = randomToken();
    m_codes.insert(code, {client.key(), redirectGiven ? redirectUri : QString(),
                          q.value(u"code_challenge"_s), resource, scopes,
                          m_clock.nowMs() + CodeLifetimeMs});
    return back({{u"code"_s, code}});
}

std::optional<QString> DemoAuthServer::authenticate(const DemoHttpRequest &r,
                                                    const QHash<QString, QString> &form,
                                                    DemoHttpResponse *refusal) const
{
    auto refuse = [refusal](const QString &why, bool basic) -> std::optional<QString> {
        *refusal = oauthError(401, u"invalid_client"_s, why);
        if (basic)
            refusal->addHeader("WWW-Authenticate", "Basic realm=\"sonde-demo\"");
        return std::nullopt;
    };
    const QByteArray authorization = r.headers.value("authorization");
    if (authorization.startsWith("Basic ")) {
        // RFC 6749 §2.3.1: both halves are form-encoded before they are joined.
        const QByteArray pair = QByteArray::fromBase64(authorization.mid(6).trimmed());
        const qsizetype colon = pair.indexOf(':');
        const QHash<QString, QString> parts = DemoHttpRequest::form(
            "id=" + pair.left(qMax<qsizetype>(colon, 0)) + "&secret=" + pair.mid(colon + 1));
        const auto client = m_clients.constFind(parts.value(u"id"_s));
        if (colon < 0 || client == m_clients.cend())
            return refuse(u"the client in the Basic credentials is not registered"_s, true);
        if (client->authMethod != "client_secret_basic"_L1)
            return refuse(
                u"this client registered for %1, not client_secret_basic"_s.arg(client->authMethod),
                true);
        if (parts.value(u"secret"_s) != client->secret)
            return refuse(u"wrong client secret"_s, true);
        return client.key();
    }
    const auto client = m_clients.constFind(form.value(u"client_id"_s));
    if (client == m_clients.cend())
        return refuse(form.contains(u"client_id"_s) ? u"client_id is not registered here"_s
                                                    : u"no client authentication"_s,
                      false);
    if (client->authMethod == "client_secret_basic"_L1)
        return refuse(u"this client registered for client_secret_basic: send an "
                      "Authorization: Basic header"_s,
                      true);
    if (client->authMethod == "client_secret_post"_L1 &&
        form.value(u"client_secret"_s) != client->secret)
        return refuse(form.contains(u"client_secret"_s)
                          ? u"wrong client secret"_s
                          : u"this client registered for client_secret_post: send "
                            "client_secret in the body"_s,
                      false);
    return client.key();
}

// RFC 8707 §2: the token is for this server, and the client must say so in every token
// request; nullopt when it did.
std::optional<DemoHttpResponse>
DemoAuthServer::wrongTarget(const QHash<QString, QString> &form) const
{
    const QString resource = form.value(u"resource"_s);
    if (QUrl(resource, QUrl::StrictMode) == QUrl(m_resource))
        return std::nullopt;
    return oauthError(400, u"invalid_target"_s,
                      resource.isEmpty()
                          ? u"resource is required (RFC 8707): %1"_s.arg(m_resource)
                          : u"resource %1 is not this server's (%2)"_s.arg(resource, m_resource));
}

DemoHttpResponse DemoAuthServer::token(const DemoHttpRequest &r)
{
    if (!r.headers.value("content-type").startsWith("application/x-www-form-urlencoded"))
        return oauthError(400, u"invalid_request"_s,
                          u"the token request must be application/x-www-form-urlencoded"_s);
    const QHash<QString, QString> form = DemoHttpRequest::form(r.body);
    DemoHttpResponse refusal;
    const std::optional<QString> clientId = authenticate(r, form, &refusal);
    if (!clientId)
        return refusal;
    const QString grantType = form.value(u"grant_type"_s);
    if (grantType == "authorization_code"_L1)
        return exchangeCode(form, *clientId);
    if (grantType == "refresh_token"_L1)
        return refresh(form, *clientId);
    return oauthError(400, u"unsupported_grant_type"_s,
                      u"grant_type must be authorization_code or refresh_token"_s);
}

DemoHttpResponse DemoAuthServer::exchangeCode(const QHash<QString, QString> &form,
                                              const QString &clientId)
{
    // A code is taken out at its first use, right or wrong, so a verifier cannot be guessed.
    const std::optional<Code> code = [&]() -> std::optional<Code> {
        const auto it = m_codes.constFind(form.value(u"code"_s));
        if (it == m_codes.cend())
            return std::nullopt;
        Code c = *it;
        m_codes.erase(it);
        return c;
    }();
    if (!code)
        return oauthError(400, u"invalid_grant"_s,
                          u"the code is unknown, used already or revoked"_s);
    if (code->expiresAtMs <= m_clock.nowMs())
        return oauthError(400, u"invalid_grant"_s, u"the code expired"_s);
    if (code->clientId != clientId)
        return oauthError(400, u"invalid_grant"_s, u"the code was issued to another client"_s);
    if (!code->redirectUri.isEmpty() && form.value(u"redirect_uri"_s) != code->redirectUri)
        return oauthError(400, u"invalid_grant"_s,
                          u"redirect_uri differs from the authorization request's"_s);
    if (auto refusal = wrongTarget(form))
        return *refusal;
    const QByteArray verifier = form.value(u"code_verifier"_s).toLatin1();
    const QByteArray challenge =
        QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    if (verifier.size() < 43 || verifier.size() > 128 || challenge != code->challenge.toLatin1())
        return oauthError(400, u"invalid_grant"_s,
                          u"code_verifier does not match the code_challenge (PKCE S256)"_s);
    return grant(clientId, code->scopes);
}

DemoHttpResponse DemoAuthServer::refresh(const QHash<QString, QString> &form,
                                         const QString &clientId)
{
    const QString presented = form.value(u"refresh_token"_s);
    if (m_revoked.contains(presented))
        return oauthError(400, u"invalid_grant"_s, u"the refresh token was revoked"_s);
    const auto it = m_refreshTokens.find(presented);
    if (it == m_refreshTokens.end())
        return oauthError(400, u"invalid_grant"_s, u"the refresh token is unknown"_s);
    if (it->used)
        return oauthError(400, u"invalid_grant"_s,
                          u"the refresh token was used already (they rotate)"_s);
    if (it->clientId != clientId)
        return oauthError(400, u"invalid_grant"_s,
                          u"the refresh token was issued to another client"_s);
    if (auto refusal = wrongTarget(form))
        return *refusal;
    QStringList scopes = form.value(u"scope"_s).split(u' ', Qt::SkipEmptyParts);
    for (const QString &s : std::as_const(scopes))
        if (!it->scopes.contains(s))
            return oauthError(400, u"invalid_scope"_s,
                              u"%1 was not granted; a refresh can only narrow"_s.arg(s));
    if (scopes.isEmpty())
        scopes = it->scopes;
    it->used = true;
    return grant(clientId, scopes);
}

DemoHttpResponse DemoAuthServer::grant(const QString &clientId, const QStringList &scopes)
{
    const QString access = randomToken(), refreshToken = randomToken();
    m_accessTokens.insert(access, {clientId, scopes, m_clock.nowMs() + m_ttlMs, false});
    m_refreshTokens.insert(refreshToken, {clientId, scopes, 0, false});
    DemoHttpResponse r = json(200, {{"access_token"_L1, access},
                                    {"token_type"_L1, "Bearer"_L1},
                                    {"expires_in"_L1, m_ttlMs / 1000},
                                    {"scope"_L1, scopes.join(u' ')},
                                    {"refresh_token"_L1, refreshToken}});
    r.addHeader("Cache-Control", "no-store");
    return r;
}

DemoAuthServer::TokenCheck DemoAuthServer::check(const QByteArray &accessToken) const
{
    const QString token = QString::fromLatin1(accessToken);
    if (m_revoked.contains(token))
        return {false, u"the access token was revoked"_s, {}};
    const auto it = m_accessTokens.constFind(token);
    if (it == m_accessTokens.cend())
        return {false, u"the access token is not one this server issued"_s, {}};
    if (it->expiresAtMs <= m_clock.nowMs())
        return {false, u"the access token expired"_s, {}};
    return {true, {}, QSet<QString>(it->scopes.cbegin(), it->scopes.cend())};
}

void DemoAuthServer::noteRefusal(int status)
{
    ++(status == 403 ? m_stats.refused403 : m_stats.refused401);
}

DemoHttpResponse DemoAuthServer::stats(const DemoHttpRequest &r) const
{
    if (!r.fromLoopback)
        return oauthError(403, u"access_denied"_s, u"admin paths answer loopback peers only"_s);
    return json(200, {{"metadata_requests"_L1, m_stats.metadataRequests},
                      {"registration_requests"_L1, m_stats.registrationRequests},
                      {"authorization_requests"_L1, m_stats.authorizationRequests},
                      {"token_requests"_L1, m_stats.tokenRequests},
                      {"refused_401"_L1, m_stats.refused401},
                      {"refused_403"_L1, m_stats.refused403}});
}

DemoHttpResponse DemoAuthServer::revokeAll(const DemoHttpRequest &r)
{
    if (!r.fromLoopback)
        return oauthError(403, u"access_denied"_s, u"admin paths answer loopback peers only"_s);
    const qsizetype access = m_accessTokens.size(), refreshTokens = m_refreshTokens.size();
    for (auto it = m_accessTokens.cbegin(); it != m_accessTokens.cend(); ++it)
        m_revoked.insert(it.key());
    for (auto it = m_refreshTokens.cbegin(); it != m_refreshTokens.cend(); ++it)
        m_revoked.insert(it.key());
    m_accessTokens.clear();
    m_refreshTokens.clear();
    m_codes.clear();
    return json(
        200, {{"revoked_access_tokens"_L1, access}, {"revoked_refresh_tokens"_L1, refreshTokens}});
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/authorizationflow.h"

#include "auth/discoveryorder.h"
#include "auth/issuercheck.h"
#include "auth/pkce.h"
#include "auth/tokenrequest.h"
#include "util/clock.h"

#include <QPointer>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString canonicalServerUrl(QUrl url)
{
    url.setFragment({});
    url.setQuery(QString());
    return url.toString();
}

} // namespace

AuthorizationFlow::AuthorizationFlow(Input input, const AuthHttpClient &http,
                                     AuthorizationUserAgent *agent, const Clock &clock,
                                     QObject *parent)
    : QObject(parent), m_in(std::move(input)), m_http(http), m_agent(agent), m_clock(clock)
{
}

void AuthorizationFlow::start()
{
    fetchResourceMetadata(DiscoveryOrder::protectedResource(m_in.serverUrl, m_in.resourceMetadata),
                          0);
}

AuthStep AuthorizationFlow::httpStep(const QString &name, const QString &method,
                                     const AuthHttpClient::Answer &answer) const
{
    AuthStep s;
    s.name = name;
    s.method = method;
    QUrl url = answer.url;
    url.setQuery(QString()); // an authorize URL's query is long and says nothing secret, but
                             // a token or registration URL never needs one
    s.url = url;
    s.status = answer.status;
    s.startedMs = answer.startedMs;
    s.elapsedMs = answer.elapsedMs;
    return s;
}

AuthStep AuthorizationFlow::decision(const QString &name, const QString &chosen,
                                     const QString &why) const
{
    AuthStep s;
    s.name = name;
    s.chosen = chosen;
    s.why = why;
    s.startedMs = m_clock.nowMs();
    return s;
}

void AuthorizationFlow::fail(AuthStep step, const QString &error)
{
    if (m_done)
        return;
    m_done = true;
    step.ok = false;
    step.error = error;
    Q_EMIT stepRecorded(step);
    m_agent->finish();
    Result r;
    r.error = u"%1: %2"_s.arg(step.name, error);
    Q_EMIT finished(r);
}

void AuthorizationFlow::fetchResourceMetadata(const QList<QUrl> &urls, int index)
{
    m_http.get(urls.at(index), this, [this, urls, index](const AuthHttpClient::Answer &a) {
        AuthStep step = httpStep(u"protected-resource-metadata"_s, u"GET"_s, a);
        const bool last = index + 1 >= urls.size();
        if (a.status != 200 || !a.isJsonObject()) {
            step.ok = false;
            step.error = a.describe();
            step.why = last ? u"no protected resource metadata: the 2025-03-26 rules apply"_s
                            : u"not found here: trying the next well-known URL"_s;
            Q_EMIT stepRecorded(step);
            if (!last) {
                fetchResourceMetadata(urls, index + 1);
                return;
            }
            m_issuer = DiscoveryOrder::legacyIssuer(m_in.serverUrl);
            Q_EMIT stepRecorded(decision(
                u"authorization-server"_s, m_issuer,
                u"the MCP server's origin is the authorization server (2025-03-26 fallback)"_s));
            fetchServerMetadata(DiscoveryOrder::authorizationServer(m_issuer), 0);
            return;
        }
        QString problem;
        m_prm = ProtectedResourceMetadata::fromJson(a.json(), &problem);
        if (problem.isEmpty())
            problem = ProtectedResourceMetadata::resourceMismatch(m_prm.resource, m_in.serverUrl);
        if (!problem.isEmpty()) {
            fail(step, problem);
            return;
        }
        m_hasResourceMetadata = true;
        step.chosen = m_prm.resource;
        step.why = index == 0 && !m_in.resourceMetadata.isEmpty()
                       ? u"resource_metadata from WWW-Authenticate"_s
                       : u"well-known URL"_s;
        Q_EMIT stepRecorded(step);
        m_issuer = m_prm.authorizationServers.constFirst();
        Q_EMIT stepRecorded(decision(
            u"authorization-server"_s, m_issuer,
            m_prm.authorizationServers.size() == 1
                ? u"the one authorization server the protected resource lists"_s
                : u"the first of %1 authorization servers the protected resource lists"_s.arg(
                      m_prm.authorizationServers.size())));
        fetchServerMetadata(DiscoveryOrder::authorizationServer(m_issuer), 0);
    });
}

void AuthorizationFlow::fetchServerMetadata(const QList<QUrl> &urls, int index)
{
    m_http.get(urls.at(index), this, [this, urls, index](const AuthHttpClient::Answer &a) {
        AuthStep step = httpStep(u"authorization-server-metadata"_s, u"GET"_s, a);
        const bool last = index + 1 >= urls.size();
        if (a.status != 200 || !a.isJsonObject()) {
            if (last && !m_hasResourceMetadata) {
                step.ok = false;
                step.error = a.describe();
                Q_EMIT stepRecorded(step);
                useLegacyEndpoints(u"no authorization server metadata: the default endpoints "
                                   u"of 2025-03-26"_s);
                return;
            }
            if (last) {
                fail(step,
                     u"no authorization server metadata for %1 at any well-known URL (%2)"_s.arg(
                         m_issuer, a.describe()));
                return;
            }
            step.ok = false;
            step.error = a.describe();
            step.why = u"not found here: trying the next well-known URL"_s;
            Q_EMIT stepRecorded(step);
            fetchServerMetadata(urls, index + 1);
            return;
        }
        m_as = AuthorizationServerMetadata::fromJson(a.json());
        if (const QString problem = m_as.problem(m_issuer); !problem.isEmpty()) {
            fail(step, problem);
            return;
        }
        step.chosen = m_as.issuer;
        step.why = m_as.issParameterSupported
                       ? u"issuer checked; it advertises iss in authorization responses"_s
                       : u"issuer checked"_s;
        Q_EMIT stepRecorded(step);
        prepareAgent();
    });
}

void AuthorizationFlow::useLegacyEndpoints(const QString &why)
{
    const DiscoveryOrder::Endpoints e = DiscoveryOrder::legacyEndpoints(m_issuer);
    m_as = {};
    m_as.issuer = m_issuer;
    m_as.authorizationEndpoint = e.authorization;
    m_as.tokenEndpoint = e.token;
    m_as.registrationEndpoint = e.registration;
    m_as.codeChallengeMethods = {u"S256"_s}; // 2025-03-26: PKCE is required of every server
    m_as.fromWellKnown = false;
    Q_EMIT stepRecorded(
        decision(u"authorization-server-metadata"_s, e.authorization.toString(), why));
    prepareAgent();
}

void AuthorizationFlow::prepareAgent()
{
    m_resource = m_hasResourceMetadata ? m_prm.resource : canonicalServerUrl(m_in.serverUrl);
    // The agent outlives a flow that timed out: its answers then come to no one.
    QPointer<AuthorizationFlow> self(this);
    m_agent->prepare([this, self](const QUrl &redirectUri, const QString &error) {
        if (!self)
            return;
        if (redirectUri.isEmpty()) {
            fail(decision(u"authorization"_s, {}, m_agent->kind()), error);
            return;
        }
        m_redirectUri = redirectUri;
        chooseIdentity();
    });
}

void AuthorizationFlow::chooseIdentity()
{
    const ClientIdentity &known = m_in.knownIdentity;
    const ClientIdentity::Plan plan =
        ClientIdentity::plan(m_in.config.clientId, m_in.config.clientMetadataUrl, m_as);
    if (plan.source == ClientIdentity::Source::None) {
        fail(decision(u"client-identity"_s, {}, {}), plan.why);
        return;
    }
    m_identity = {};
    m_identity.source = plan.source;
    m_identity.issuer = m_issuer;
    QString why = plan.why;
    if (plan.source == ClientIdentity::Source::PreRegistered) {
        m_identity.clientId = m_in.config.clientId;
        m_identity.clientSecret = m_in.config.clientSecret;
        m_identity.authMethod =
            ClientIdentity::authMethodFor(m_as, !m_identity.clientSecret.isEmpty());
    } else if (plan.source == ClientIdentity::Source::Cimd) {
        m_identity.clientId = m_in.config.clientMetadataUrl.toString();
        m_identity.authMethod = u"none"_s;
    } else if (known.source == plan.source && known.issuer == m_issuer &&
               !known.clientId.isEmpty()) {
        m_identity = known;
        why = u"registered earlier with this authorization server"_s;
    } else {
        if (known.source == plan.source && !known.clientId.isEmpty())
            why = u"dynamic registration: the authorization server changed from %1, its client "
                  u"id is not reused"_s.arg(known.issuer);
        Q_EMIT stepRecorded(
            decision(u"client-identity"_s, ClientIdentity::sourceName(plan.source), why));
        registerClient();
        return;
    }
    Q_EMIT stepRecorded(decision(
        u"client-identity"_s, ClientIdentity::sourceName(plan.source),
        u"%1; client authentication at the token endpoint: %2"_s.arg(why, m_identity.authMethod)));
    Q_EMIT identityChosen(m_identity);
    authorize();
}

void AuthorizationFlow::registerClient()
{
    const QString method = ClientIdentity::authMethodFor(m_as, false);
    m_scope = !m_in.stepUp ? ScopeSelection::initial(m_in.config.scope, m_in.challengeScope,
                                                     m_prm.scopesSupported, m_as.scopesSupported)
                           : ScopeSelection::stepUp(m_in.stepUpFrom, m_in.challengeScope,
                                                    m_as.scopesSupported);
    const QJsonObject request =
        ClientIdentity::registrationRequest(m_redirectUri, method, m_scope.text());
    m_http.postJson(
        m_as.registrationEndpoint, request, this, [this, method](const AuthHttpClient::Answer &a) {
            AuthStep step = httpStep(u"client-registration"_s, u"POST"_s, a);
            const QJsonObject o = a.json();
            const QString id = o.value("client_id"_L1).toString();
            if ((a.status != 200 && a.status != 201) || id.isEmpty()) {
                fail(step, u"dynamic registration failed: %1"_s.arg(a.describe()));
                return;
            }
            m_identity.clientId = id;
            m_identity.clientSecret = o.value("client_secret"_L1).toString();
            m_identity.authMethod = o.value("token_endpoint_auth_method"_L1).toString(method);
            if (m_identity.clientSecret.isEmpty())
                m_identity.authMethod = u"none"_s;
            step.chosen = m_identity.clientId;
            step.why =
                u"registered as a native client; client authentication at the token endpoint: %1"_s
                    .arg(m_identity.authMethod);
            Q_EMIT stepRecorded(step);
            Q_EMIT identityChosen(m_identity);
            authorize();
        });
}

void AuthorizationFlow::authorize()
{
    if (m_scope.why.isEmpty())
        m_scope = !m_in.stepUp
                      ? ScopeSelection::initial(m_in.config.scope, m_in.challengeScope,
                                                m_prm.scopesSupported, m_as.scopesSupported)
                      : ScopeSelection::stepUp(m_in.stepUpFrom, m_in.challengeScope,
                                               m_as.scopesSupported);
    m_verifier = Pkce::verifier();
    m_state = Pkce::randomToken();
    QUrlQuery q(m_as.authorizationEndpoint);
    q.addQueryItem(u"response_type"_s, u"code"_s);
    q.addQueryItem(u"client_id"_s, m_identity.clientId);
    q.addQueryItem(u"redirect_uri"_s, m_redirectUri.toString());
    q.addQueryItem(u"code_challenge"_s, QString::fromLatin1(Pkce::challenge(m_verifier)));
    q.addQueryItem(u"code_challenge_method"_s, u"S256"_s);
    q.addQueryItem(u"state"_s, QString::fromLatin1(m_state));
    q.addQueryItem(u"resource"_s, m_resource);
    if (!m_scope.scopes.isEmpty())
        q.addQueryItem(u"scope"_s, m_scope.text());
    QUrl url = m_as.authorizationEndpoint;
    // Reserved characters of the values (the redirect URI's ':' and '/') are encoded, as
    // authorization servers expect of a form-encoded query.
    QString query;
    for (const auto &[key, value] : q.queryItems(QUrl::FullyDecoded)) {
        if (!query.isEmpty())
            query += u'&';
        query += QString::fromLatin1(QUrl::toPercentEncoding(key) + '=' +
                                     QUrl::toPercentEncoding(value));
    }
    url.setQuery(query, QUrl::StrictMode);
    AuthStep step = decision(u"authorization"_s, m_scope.text(), m_scope.why);
    step.method = u"GET"_s;
    step.url = m_as.authorizationEndpoint;
    const qint64 started = m_clock.nowMs();
    Q_EMIT awaitingUser(url);
    QPointer<AuthorizationFlow> self(this);
    m_agent->authorize(url, [this, self, step,
                             started](const AuthorizationUserAgent::Response &r) mutable {
        if (!self)
            return;
        step.elapsedMs = m_clock.nowMs() - started;
        m_agent->finish();
        // RFC 9207 first: a response from the wrong issuer is not read at all, not even its
        // error (2026-07-28 "Authorization Response Validation").
        if (r.error != "agent_error"_L1) {
            if (const QString problem =
                    IssuerCheck::problem(m_as.issParameterSupported, r.issPresent, r.iss, m_issuer);
                !problem.isEmpty()) {
                fail(step, problem);
                return;
            }
        }
        if (!r.error.isEmpty()) {
            fail(step, r.error == "agent_error"_L1
                           ? r.errorDescription
                           : u"the authorization server answered %1%2"_s.arg(
                                 r.error, r.errorDescription.isEmpty()
                                              ? QString()
                                              : u" (%1)"_s.arg(r.errorDescription)));
            return;
        }
        if (r.state != QString::fromLatin1(m_state)) {
            fail(step, u"the redirect's state is not the one sent: the answer is not used"_s);
            return;
        }
        if (r.code.isEmpty()) {
            fail(step, u"the redirect carries no code"_s);
            return;
        }
        step.why += r.issPresent ? u"; iss matches the issuer"_s : QString();
        Q_EMIT stepRecorded(step);
        exchange(r.code);
    });
}

void AuthorizationFlow::exchange(const QString &code)
{
    const TokenRequest request =
        TokenRequest::authorizationCode(m_identity, code, m_redirectUri, m_verifier, m_resource);
    m_http.postForm(m_as.tokenEndpoint, request.form, request.basic, this,
                    [this](const AuthHttpClient::Answer &a) {
                        AuthStep step = httpStep(u"token"_s, u"POST"_s, a);
                        step.chosen = m_identity.authMethod;
                        step.why = u"client authentication at the token endpoint: %1"_s.arg(
                            m_identity.authMethod);
                        if (a.status == 0) {
                            fail(step, a.error);
                            return;
                        }
                        const TokenRequest::Grant g =
                            TokenRequest::readAnswer(a.status, a.contentType, a.body);
                        if (!g.error.isEmpty()) {
                            fail(step, g.error);
                            return;
                        }
                        Q_EMIT stepRecorded(step);
                        m_done = true;
                        Result r;
                        r.ok = true;
                        r.tokens.accessToken = g.accessToken;
                        r.tokens.refreshToken = g.refreshToken;
                        r.tokens.scopes = g.scopes.isEmpty() ? m_scope.scopes : g.scopes;
                        r.tokens.resource = m_resource;
                        r.tokens.tokenEndpoint = m_as.tokenEndpoint;
                        r.tokens.identity = m_identity;
                        r.expiresInSeconds = g.expiresInSeconds;
                        Q_EMIT finished(r);
                    });
}

} // namespace Sonde

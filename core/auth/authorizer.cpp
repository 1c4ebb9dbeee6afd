// SPDX-License-Identifier: MIT
#include "auth/authorizer.h"

#include "auth/authhttpclient.h"
#include "auth/authorizationflow.h"
#include "auth/authorizationuseragent.h"
#include "auth/refreshschedule.h"
#include "auth/scopeselection.h"
#include "auth/tokenrequest.h"
#include "auth/tokenset.h"
#include "auth/wwwauthenticate.h"
#include "secrets/secretstore.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <QLoggingCategory>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

Q_LOGGING_CATEGORY(lcAuth, "sonde.core.auth", QtWarningMsg)

constexpr int requestTimeoutMs = 30'000;

} // namespace

class Authorizer::Private
{
public:
    Private(Authorizer *owner, const ServerConfig &server, QNetworkAccessManager *nam,
            std::unique_ptr<AuthorizationUserAgent> userAgent, SecretStore *secrets,
            const Clock &time)
        : q(owner), config(server), http(nam, time, requestTimeoutMs), agent(std::move(userAgent)),
          store(secrets), clock(time), refreshTimer(time.createTimer(owner)),
          flowTimer(clock.createTimer(q))
    {
        state.server = config.name;
        state.secretStore = store ? store->kind() : u"memory"_s;
    }

    void record(const AuthStep &step)
    {
        state.steps.append(step);
        Q_EMIT q->stepRecorded(step);
        Q_EMIT q->stateChanged(state);
    }
    void setStatus(AuthState::Status status, const QString &error = {})
    {
        state.status = status;
        state.error = error;
        if (status != AuthState::Status::AwaitingUser)
            state.authorizationUrl.clear();
        Q_EMIT q->stateChanged(state);
    }
    void startFlow(const QString &challengeScope, const QUrl &resourceMetadata, bool stepUp,
                   const QStringList &held, std::function<void(Verdict)> done);
    void flowFinished(const AuthorizationFlow::Result &result);
    void flowTimedOut();
    void startRefresh(std::function<void(Verdict)> done);
    // The tokens in use from now on; `persist`: written to the store (not when just read).
    void adopt(const TokenSet &next, qint64 expiresInSeconds, bool persist = true);
    void persist();
    void answerWaiters(const Verdict &verdict);
    Verdict failure(const QString &message, int status) const
    {
        Verdict v;
        v.error = Error(Error::Kind::Remote, message);
        if (status)
            v.error.setHttpStatus(status);
        return v;
    }

    Authorizer *q;
    ServerConfig config;
    AuthHttpClient http;
    std::unique_ptr<AuthorizationUserAgent> agent;
    SecretStore *store;
    const Clock &clock;
    ClockTimer *refreshTimer;
    ClockTimer *flowTimer; // the whole flow, the user in the browser included
    TokenSet tokens;
    AuthState state;
    QPointer<AuthorizationFlow> flow;
    bool refreshing = false;
    bool lastAnswerWasRefresh = false; // the credentials in use came from a refresh
    int stepUps = 0;
    QString stepUpScope; // what the step-ups so far were for
    int challengeStatus = 0;
    QList<std::function<void(Verdict)>> waiters;
};

void Authorizer::Private::answerWaiters(const Verdict &verdict)
{
    const auto list = std::exchange(waiters, {});
    for (const auto &w : list)
        w(verdict);
}

void Authorizer::Private::startFlow(const QString &challengeScope, const QUrl &resourceMetadata,
                                    bool stepUp, const QStringList &held,
                                    std::function<void(Verdict)> done)
{
    waiters.append(std::move(done));
    if (flow || refreshing)
        return; // joins the one running
    state.steps.clear();
    setStatus(AuthState::Status::Discovering);
    AuthorizationFlow::Input in;
    in.serverUrl = config.url;
    in.config = config.auth;
    in.challengeScope = challengeScope;
    in.resourceMetadata = resourceMetadata;
    in.stepUp = stepUp;
    in.stepUpFrom = held;
    in.knownIdentity = tokens.identity;
    flow = new AuthorizationFlow(in, http, agent.get(), clock, q);
    QObject::connect(flow, &AuthorizationFlow::stepRecorded, q,
                     [this](const AuthStep &s) { record(s); });
    QObject::connect(flow, &AuthorizationFlow::awaitingUser, q, [this](const QUrl &url) {
        state.authorizationUrl = url;
        state.status = AuthState::Status::AwaitingUser;
        Q_EMIT q->stateChanged(state);
    });
    QObject::connect(flow, &AuthorizationFlow::identityChosen, q,
                     [this](const ClientIdentity &identity) {
                         state.issuer = identity.issuer;
                         state.clientId = identity.clientId;
                         state.clientIdSource = ClientIdentity::sourceName(identity.source);
                         // A registration is kept even if the flow fails later: it is reused.
                         tokens.identity = identity;
                     });
    QObject::connect(flow, &AuthorizationFlow::finished, q,
                     [this](const AuthorizationFlow::Result &r) { flowFinished(r); });
    flowTimer->start(config.auth.flowTimeoutMs);
    flow->start();
}

void Authorizer::Private::flowTimedOut()
{
    if (!flow)
        return;
    delete flow; // its replies go with it
    agent->finish();
    AuthStep step;
    step.name = u"authorization"_s;
    step.ok = false;
    step.error = u"the flow did not complete within %1 s"_s.arg(config.auth.flowTimeoutMs / 1000);
    step.startedMs = clock.nowMs();
    record(step);
    setStatus(AuthState::Status::Failed, step.error);
    answerWaiters(failure(u"needs_reauth: "_s + step.error, challengeStatus));
}

void Authorizer::Private::flowFinished(const AuthorizationFlow::Result &result)
{
    flowTimer->stop();
    if (flow)
        flow->deleteLater();
    flow = nullptr;
    if (!result.ok) {
        setStatus(AuthState::Status::Failed, result.error);
        answerWaiters(failure(u"needs_reauth: "_s + result.error, challengeStatus));
        return;
    }
    lastAnswerWasRefresh = false;
    adopt(result.tokens, result.expiresInSeconds);
    Verdict v;
    v.retry = true;
    answerWaiters(v);
}

void Authorizer::Private::adopt(const TokenSet &next, qint64 expiresInSeconds, bool persistIt)
{
    const qint64 now = clock.nowMs();
    tokens = next;
    tokens.expiresAtMs = expiresInSeconds > 0 ? now + expiresInSeconds * 1000 : 0;
    state.issuer = tokens.identity.issuer;
    state.resource = tokens.resource;
    state.clientId = tokens.identity.clientId;
    state.clientIdSource = ClientIdentity::sourceName(tokens.identity.source);
    state.scopes = tokens.scopes;
    state.expiresAtMs = tokens.expiresAtMs;
    state.hasRefreshToken = !tokens.refreshToken.isEmpty();
    const qint64 at = RefreshSchedule::refreshAtMs(now, expiresInSeconds);
    if (at >= 0 && state.hasRefreshToken)
        refreshTimer->start(at - now);
    else
        refreshTimer->stop();
    setStatus(AuthState::Status::Authorized);
    if (persistIt)
        persist();
}

void Authorizer::Private::persist()
{
    if (!store)
        return;
    const QString key = TokenSet::storeKey(config.name);
    auto done = [](const QString &error) {
        if (!error.isEmpty())
            qCWarning(lcAuth) << "the secret store did not keep the tokens:" << error;
    };
    if (tokens.isEmpty())
        store->remove(key, done);
    else
        store->write(key, tokens.toStored(), done);
}

void Authorizer::Private::startRefresh(std::function<void(Verdict)> done)
{
    waiters.append(std::move(done));
    if (flow || refreshing)
        return;
    if (tokens.refreshToken.isEmpty() || tokens.tokenEndpoint.isEmpty()) {
        setStatus(AuthState::Status::NeedsReauth, u"no refresh token is held"_s);
        answerWaiters(failure(u"needs_reauth: refresh: no refresh token is held"_s, 0));
        return;
    }
    refreshing = true;
    refreshTimer->stop();
    const TokenRequest request =
        TokenRequest::refresh(tokens.identity, tokens.refreshToken, tokens.resource, tokens.scopes);
    http.postForm(
        tokens.tokenEndpoint, request.form, request.basic, q,
        [this](const AuthHttpClient::Answer &a) {
            refreshing = false;
            AuthStep step;
            step.name = u"refresh"_s;
            step.method = u"POST"_s;
            step.url = a.url;
            step.status = a.status;
            step.startedMs = a.startedMs;
            step.elapsedMs = a.elapsedMs;
            step.chosen = tokens.identity.authMethod;
            step.why = u"client authentication at the token endpoint: %1"_s.arg(
                tokens.identity.authMethod);
            const TokenRequest::Grant g =
                a.status == 0 ? TokenRequest::Grant{}
                              : TokenRequest::readAnswer(a.status, a.contentType, a.body);
            const QString error = a.status == 0 ? a.error : g.error;
            if (!error.isEmpty()) {
                step.ok = false;
                step.error = error;
                record(step);
                // Refused by the server (4xx): the refresh token is spent. A network
                // failure leaves it for the next try.
                const bool refused = a.status >= 400 && a.status < 500;
                if (refused) {
                    tokens.refreshToken.clear();
                    state.hasRefreshToken = false;
                }
                setStatus(refused ? AuthState::Status::NeedsReauth : AuthState::Status::Failed,
                          error);
                answerWaiters(
                    failure((refused ? u"needs_reauth: refresh: "_s : u"refresh: "_s) + error,
                            challengeStatus));
                return;
            }
            record(step);
            TokenSet next = tokens;
            next.accessToken = g.accessToken;
            if (!g.refreshToken.isEmpty())
                next.refreshToken = g.refreshToken; // rotated (OAuth 2.1 §4.3.1)
            if (!g.scopes.isEmpty())
                next.scopes = g.scopes;
            lastAnswerWasRefresh = true;
            adopt(next, g.expiresInSeconds);
            Verdict v;
            v.retry = true;
            answerWaiters(v);
        });
}

Authorizer::Authorizer(const ServerConfig &config, QNetworkAccessManager *nam,
                       std::unique_ptr<AuthorizationUserAgent> agent, SecretStore *store,
                       const Clock &clock, QObject *parent)
    : QObject(parent),
      d(std::make_unique<Private>(this, config, nam, std::move(agent), store, clock))
{
    connect(d->refreshTimer, &ClockTimer::timeout, this,
            [this] { refresh([](const Verdict &) {}); });
    connect(d->flowTimer, &ClockTimer::timeout, this, [this] { d->flowTimedOut(); });
}

Authorizer::~Authorizer()
{
    if (d->agent)
        d->agent->finish();
}

QByteArray Authorizer::header() const
{
    if (d->tokens.accessToken.isEmpty())
        return {};
    return "Bearer " + d->tokens.accessToken.toUtf8();
}

void Authorizer::challenged(const Challenge &challenge, std::function<void(Verdict)> done)
{
    const WwwAuthenticate::Bearer bearer = WwwAuthenticate::bearer(challenge.wwwAuthenticate);
    d->challengeStatus = challenge.status;
    if (!d->config.auth.enabled) {
        done(d->failure(u"the server asks for authorization (HTTP %1), which is off for it"_s.arg(
                            challenge.status),
                        challenge.status));
        return;
    }
    const QUrl resourceMetadata(bearer.resourceMetadata);
    if (challenge.status == 403) {
        if (bearer.error != "insufficient_scope"_L1) {
            done(d->failure(u"the server refused the request (HTTP 403%1)"_s.arg(
                                bearer.error.isEmpty() ? QString() : u", "_s + bearer.error),
                            403));
            return;
        }
        if (bearer.scope != d->stepUpScope) {
            d->stepUpScope = bearer.scope;
            d->stepUps = 0;
        }
        if (d->stepUps >= d->config.auth.stepUpLimit) {
            const QString message =
                u"needs_reauth: step-up: the server still requires scope \"%1\" after %2 "
                u"re-authorizations (the limit)"_s.arg(bearer.scope)
                    .arg(d->stepUps);
            d->setStatus(AuthState::Status::Failed, message.mid(14));
            done(d->failure(message, 403));
            return;
        }
        ++d->stepUps;
        const QStringList held = d->tokens.scopes.isEmpty()
                                     ? ScopeSelection::split(d->config.auth.scope)
                                     : d->tokens.scopes;
        d->startFlow(bearer.scope, resourceMetadata, true, held, std::move(done));
        return;
    }
    // A 401 to a request sent before the credentials now held were in place (a flow that
    // another request started has finished since): just send it again.
    if (!challenge.hadCredentials && !d->tokens.accessToken.isEmpty() && !d->flow &&
        !d->refreshing) {
        Verdict v;
        v.retry = true;
        done(v);
        return;
    }
    // A 401. With a refresh token, and unless the token just refused came from a refresh
    // (then the grant itself is no longer good: a revoked grant, or a new authorization
    // server), a refresh is tried first.
    const bool refreshable =
        !d->tokens.refreshToken.isEmpty() && !(challenge.hadCredentials && d->lastAnswerWasRefresh);
    if (refreshable && !d->flow) {
        d->startRefresh(std::move(done));
        return;
    }
    d->lastAnswerWasRefresh = false;
    d->startFlow(bearer.scope, resourceMetadata, false, {}, std::move(done));
}

void Authorizer::loadStored(std::function<void()> done)
{
    if (!d->store) {
        done();
        return;
    }
    QPointer<Authorizer> self(this);
    d->store->read(TokenSet::storeKey(d->config.name), [self, done = std::move(done)](
                                                           std::optional<QByteArray> value,
                                                           QString error) {
        if (!self) {
            done();
            return;
        }
        Private *p = self->d.get();
        if (!error.isEmpty())
            qCWarning(lcAuth) << "the secret store could not be read:" << error;
        if (const auto stored = value ? TokenSet::fromStored(*value) : std::nullopt) {
            // A token already past its time is refreshed at once (1 s from now at 80%).
            const qint64 leftMs = stored->expiresAtMs - p->clock.nowMs();
            p->adopt(*stored, stored->expiresAtMs ? std::max<qint64>(leftMs / 1000, 1) : 0, false);
        }
        done();
    });
}

void Authorizer::login(std::function<void(Verdict)> done)
{
    d->challengeStatus = 0;
    d->startFlow({}, {}, false, {}, std::move(done));
}

void Authorizer::refresh(std::function<void(Verdict)> done)
{
    d->startRefresh(std::move(done));
}

void Authorizer::signOut(std::function<void()> done)
{
    d->refreshTimer->stop();
    const ClientIdentity keep; // the registration goes too: a new sign-in starts clean
    d->tokens = {};
    d->tokens.identity = keep;
    d->state.scopes.clear();
    d->state.expiresAtMs = 0;
    d->state.hasRefreshToken = false;
    d->setStatus(AuthState::Status::SignedOut);
    if (!d->store) {
        done();
        return;
    }
    d->store->remove(TokenSet::storeKey(d->config.name),
                     [done = std::move(done)](const QString &) { done(); });
}

AuthState Authorizer::state() const
{
    return d->state;
}

} // namespace Sonde

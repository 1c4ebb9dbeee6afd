// SPDX-License-Identifier: MIT
#pragma once

#include "auth/authhttpclient.h"
#include "auth/authorizationservermetadata.h"
#include "auth/authorizationuseragent.h"
#include "auth/clientidentity.h"
#include "auth/protectedresourcemetadata.h"
#include "auth/scopeselection.h"
#include "auth/tokenset.h"
#include "config/serverconfig.h"
#include "values/authvalues.h"

#include <QObject>

#include <memory>

namespace Sonde {

// One run of the authorization code flow (docs/auth.md), from discovery to the token:
// protected resource metadata, authorization server metadata (with the 2025-03-26 fallbacks),
// the client identity (pre-registered, CIMD, dynamic registration; an identity known for the
// same issuer is reused), the authorization request with PKCE S256, `state` and `resource`
// through the user agent, the state and `iss` checks, and the code exchange. Each request or
// decision is an AuthStep; nothing secret is put in one. Made by the Authorizer for each flow
// and deleted when it has finished. Engine thread.
class AuthorizationFlow : public QObject
{
    Q_OBJECT
public:
    struct Input
    {
        QUrl serverUrl;
        ServerConfig::Auth config;
        QString challengeScope;
        QUrl resourceMetadata;        // from the challenge; empty: the well-known URLs
        bool stepUp = false;          // a 403 insufficient_scope: challengeScope is required
        QStringList stepUpFrom;       // the scopes held when stepping up
        ClientIdentity knownIdentity; // reused when its issuer is the one found
    };
    struct Result
    {
        bool ok = false;
        QString error; // in words, naming the step
        TokenSet tokens;
        qint64 expiresInSeconds = 0;
    };

    AuthorizationFlow(Input input, const AuthHttpClient &http, AuthorizationUserAgent *agent,
                      const Clock &clock, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void stepRecorded(const Sonde::AuthStep &step);
    void awaitingUser(const QUrl &authorizationUrl);
    void identityChosen(const Sonde::ClientIdentity &identity);
    void finished(const Sonde::AuthorizationFlow::Result &result);

private:
    void fetchResourceMetadata(const QList<QUrl> &urls, int index);
    void fetchServerMetadata(const QList<QUrl> &urls, int index);
    void useLegacyEndpoints(const QString &why);
    void prepareAgent();
    void chooseIdentity();
    void registerClient();
    void authorize();
    void exchange(const QString &code);
    AuthStep httpStep(const QString &name, const QString &method,
                      const AuthHttpClient::Answer &answer) const;
    AuthStep decision(const QString &name, const QString &chosen, const QString &why) const;
    void fail(AuthStep step, const QString &error);

    Input m_in;
    const AuthHttpClient &m_http;
    AuthorizationUserAgent *m_agent;
    const Clock &m_clock;
    bool m_hasResourceMetadata = false;
    ProtectedResourceMetadata m_prm;
    QString m_issuer;
    AuthorizationServerMetadata m_as;
    ClientIdentity m_identity;
    QUrl m_redirectUri;
    QByteArray m_verifier;
    QByteArray m_state;
    ScopeSelection::Choice m_scope;
    QString m_resource;
    bool m_done = false;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::AuthorizationFlow::Result)

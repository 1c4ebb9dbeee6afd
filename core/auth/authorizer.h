// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "transport/httpauthorization.h"
#include "values/authvalues.h"

#include <QObject>

#include <memory>

class QNetworkAccessManager;

namespace Sonde {

class AuthorizationUserAgent;
class Clock;
class SecretStore;

// One server's credentials and the flows that get them (docs/auth.md). The HTTP route asks
// it for the Authorization header and, on a refusal at the door, what to do: refresh if a
// refresh token is held, else run the whole flow (discovery, client identity, authorization
// code + PKCE, token), or step up on 403 insufficient_scope with the union of scopes, at most
// auth.stepUpLimit times. Tokens are kept in the SecretStore (read once at start, written
// after each grant, removed on sign-out) and refreshed before they expire. Every step is an
// AuthStep (stepRecorded) and the state after each change an AuthState (stateChanged).
// Engine thread; the user agent and the store are used from it too.
class Authorizer : public QObject, public HttpAuthorization
{
    Q_OBJECT
public:
    Authorizer(const ServerConfig &config, QNetworkAccessManager *nam,
               std::unique_ptr<AuthorizationUserAgent> agent, SecretStore *store,
               const Clock &clock, QObject *parent = nullptr);
    ~Authorizer() override;

    QByteArray header() const override;
    void challenged(const Challenge &challenge, std::function<void(Verdict)> done) override;

    // Reads stored tokens; `done` runs once they are in place (or none were stored). The
    // route calls it before its first request so a stored token is sent at once.
    void loadStored(std::function<void()> done);
    // A flow on the user's request (`auth login`, the view's Sign in) without waiting for a
    // 401: discovery starts from the resource's well-known metadata.
    void login(std::function<void(Verdict)> done);
    void refresh(std::function<void(Verdict)> done);
    // Forgets the tokens here and in the store.
    void signOut(std::function<void()> done);
    AuthState state() const;

Q_SIGNALS:
    void stepRecorded(const Sonde::AuthStep &step);
    void stateChanged(const Sonde::AuthState &state);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Sonde

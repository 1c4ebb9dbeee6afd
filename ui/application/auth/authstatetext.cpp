// SPDX-License-Identifier: MIT
#include "application/auth/authstatetext.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Sonde {

QString AuthStateText::status(AuthState::Status status)
{
    switch (status) {
    case AuthState::Status::None:
        return tr("Not signed in");
    case AuthState::Status::Discovering:
        return tr("Signing in…");
    case AuthState::Status::AwaitingUser:
        return tr("Waiting for the browser");
    case AuthState::Status::Authorized:
        return tr("✓ Authorized");
    case AuthState::Status::NeedsReauth:
        return tr("✗ Needs sign-in again");
    case AuthState::Status::Failed:
        return tr("✗ Sign-in failed");
    case AuthState::Status::SignedOut:
        return tr("Signed out");
    }
    return {};
}

bool AuthStateText::isFailure(AuthState::Status status)
{
    return status == AuthState::Status::NeedsReauth || status == AuthState::Status::Failed;
}

QString AuthStateText::span(qint64 ms)
{
    const qint64 s = ms / 1000, min = ms / 60'000, h = ms / 3'600'000;
    if (ms < 60'000)
        return tr("%1 s").arg(s);
    if (ms <= 3'600'000)
        return tr("%1 min").arg(min);
    if (ms < 48 * 3'600'000LL)
        return min % 60 == 0 ? tr("%1 h").arg(h) : tr("%1 h %2 min").arg(h).arg(min % 60);
    return tr("%1 days").arg(h / 24);
}

QString AuthStateText::expiry(qint64 expiresAtMs, qint64 nowMs)
{
    if (expiresAtMs == 0)
        return tr("no expiry given");
    const QString at =
        QDateTime::fromMSecsSinceEpoch(expiresAtMs).toString(u"yyyy-MM-dd HH:mm:ss"_s);
    if (expiresAtMs > nowMs)
        return tr("in %1 (%2)").arg(span(expiresAtMs - nowMs), at);
    return tr("expired %1 ago (%2)").arg(span(nowMs - expiresAtMs), at);
}

QString AuthStateText::scopes(const QStringList &scopes)
{
    return scopes.isEmpty() ? tr("none granted") : scopes.join(u' ');
}

QString AuthStateText::refreshToken(bool held)
{
    return held ? tr("held: Refresh gets a new access token")
                : tr("none: when the access token expires, sign in again");
}

QString AuthStateText::client(const QString &clientId, const QString &source)
{
    if (clientId.isEmpty())
        return u"—"_s;
    QString from = source;
    if (source == "pre-registered"_L1)
        from = tr("pre-registered");
    else if (source == "cimd"_L1)
        from = tr("Client ID Metadata Document (CIMD)");
    else if (source == "dynamic-registration"_L1)
        from = tr("dynamic registration (RFC 7591)");
    return from.isEmpty() ? clientId : clientId + u" — "_s + from;
}

QString AuthStateText::secretStore(const QString &store)
{
    if (store == "keyring"_L1)
        return tr("system keyring");
    if (store == "memory"_L1)
        return tr("memory only: no keyring answered");
    if (store == "encrypted-file"_L1)
        return tr("encrypted file");
    return store.isEmpty() ? u"—"_s : store;
}

} // namespace Sonde

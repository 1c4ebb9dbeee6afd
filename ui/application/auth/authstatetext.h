// SPDX-License-Identifier: MIT
#pragma once

#include "values/authvalues.h"

#include <QCoreApplication>
#include <QString>

namespace Sonde {

// An AuthState in the words the Authorization view shows: the status ("✓ Authorized",
// "Waiting for the browser"; a failure marked ✗ as well as coloured), the expiry relative
// to a given time and absolute, where the client id came from and where the tokens live.
// No widgets, so the words are tested headless. Thread: any.
class AuthStateText
{
    Q_DECLARE_TR_FUNCTIONS(AuthStateText)
public:
    static QString status(AuthState::Status status);
    // Whether the status is a failure (shown ✗ and in AuthStepModel::errorColor()).
    static bool isFailure(AuthState::Status status);
    // "in 59 min (2026-12-01 20:03:12)", "expired 2 h 5 min ago (…)", "no expiry given".
    static QString expiry(qint64 expiresAtMs, qint64 nowMs);
    // "45 s", "59 min", "2 h 5 min", "3 days"
    static QString span(qint64 ms);
    static QString scopes(const QStringList &scopes);
    static QString refreshToken(bool held);
    // "sonde-7 — dynamic registration (RFC 7591)"; "—" before there is one.
    static QString client(const QString &clientId, const QString &source);
    // "system keyring", "memory only: no keyring answered", "encrypted file"
    static QString secretStore(const QString &store);
};

} // namespace Sonde

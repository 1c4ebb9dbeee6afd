// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

class Clock;

// The requestState of a multi round-trip request (MRTR): what the server needs again on the
// retry, carried by the client. The client controls it, so it is sealed: base64url of the
// JSON, a dot, and an HMAC-SHA256 over it and the request it belongs to (the method and the
// tool, prompt or resource name), keyed per process. A state that was changed, made by
// another process, presented on another request, or older than LifetimeMs does not open.
// Pure apart from the clock; any thread.
class MrtrState
{
public:
    // Long enough for a user to answer a form, short enough to bound a replay.
    static constexpr qint64 LifetimeMs = 10 * 60 * 1000;

    // A random key, the same for every MrtrState in this process; `clock` null: the steady
    // clock. The clock must outlive this.
    explicit MrtrState(const Clock *clock = nullptr);
    MrtrState(QByteArray key, const Clock *clock);

    // What a state is bound to besides the method: the name and a digest of the arguments,
    // so it opens only on a retry of the same call.
    static QString bindingOf(const QString &name, const QJsonObject &arguments);

    QString seal(const QString &method, const QString &name, const QJsonObject &payload) const;
    // The payload, or nothing when the state fails verification.
    std::optional<QJsonObject> open(const QString &state, const QString &method,
                                    const QString &name) const;

private:
    QByteArray mac(const QString &method, const QString &name, const QByteArray &body) const;
    qint64 nowMs() const;
    QByteArray m_key;
    const Clock *m_clock = nullptr;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "values/authvalues.h"

#include "util/enumnames.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

QJsonObject AuthStep::toJson() const
{
    QJsonObject o{{"step"_L1, name},
                  {"ok"_L1, ok},
                  {"started_ms"_L1, startedMs},
                  {"elapsed_ms"_L1, elapsedMs}};
    if (!method.isEmpty())
        o.insert("method"_L1, method);
    if (!url.isEmpty())
        o.insert("url"_L1, url.toString());
    if (status != 0)
        o.insert("status"_L1, status);
    if (!chosen.isEmpty())
        o.insert("chosen"_L1, chosen);
    if (!why.isEmpty())
        o.insert("why"_L1, why);
    if (!error.isEmpty())
        o.insert("error"_L1, error);
    return o;
}

AuthStep AuthStep::fromJson(const QJsonObject &o)
{
    AuthStep s;
    s.name = o.value("step"_L1).toString();
    s.ok = o.value("ok"_L1).toBool(true);
    s.startedMs = o.value("started_ms"_L1).toInteger();
    s.elapsedMs = o.value("elapsed_ms"_L1).toInteger();
    s.method = o.value("method"_L1).toString();
    s.url = QUrl(o.value("url"_L1).toString());
    s.status = o.value("status"_L1).toInt();
    s.chosen = o.value("chosen"_L1).toString();
    s.why = o.value("why"_L1).toString();
    s.error = o.value("error"_L1).toString();
    return s;
}

QString AuthState::statusName(Status status)
{
    switch (status) {
    case Status::None:
        return u"none"_s;
    case Status::Discovering:
        return u"discovering"_s;
    case Status::AwaitingUser:
        return u"awaiting-user"_s;
    case Status::Authorized:
        return u"authorized"_s;
    case Status::NeedsReauth:
        return u"needs_reauth"_s;
    case Status::Failed:
        return u"failed"_s;
    case Status::SignedOut:
        return u"signed-out"_s;
    }
    return {};
}

AuthState::Status AuthState::statusFromName(QStringView name)
{
    for (int s = int(Status::None); s <= int(Status::SignedOut); ++s)
        if (statusName(Status(s)) == name)
            return Status(s);
    return Status::None;
}

QJsonObject AuthState::toJson() const
{
    QJsonArray stepList;
    for (const AuthStep &s : steps)
        stepList.append(s.toJson());
    QJsonObject o{{"server"_L1, server},
                  {"status"_L1, statusName(status)},
                  {"has_refresh_token"_L1, hasRefreshToken},
                  {"scopes"_L1, QJsonArray::fromStringList(scopes)},
                  {"steps"_L1, stepList}};
    const auto put = [&o](const char *key, const QString &value) {
        if (!value.isEmpty())
            o.insert(QLatin1StringView(key), value);
    };
    put("issuer", issuer);
    put("resource", resource);
    put("client_id", clientId);
    put("client_id_source", clientIdSource);
    put("secret_store", secretStore);
    put("error", error);
    if (expiresAtMs != 0)
        o.insert("expires_at_ms"_L1, expiresAtMs);
    if (!authorizationUrl.isEmpty())
        o.insert("authorization_url"_L1, authorizationUrl.toString(QUrl::FullyEncoded));
    return o;
}

namespace {
const char *const AuthActionNames[] = {"login", "refresh", "sign-out", "status"};
} // namespace

AuthState AuthState::fromJson(const QJsonObject &o)
{
    AuthState a;
    a.server = o.value("server"_L1).toString();
    a.status = statusFromName(o.value("status"_L1).toString());
    a.hasRefreshToken = o.value("has_refresh_token"_L1).toBool();
    for (const QJsonValue &s : o.value("scopes"_L1).toArray())
        a.scopes.append(s.toString());
    for (const QJsonValue &s : o.value("steps"_L1).toArray())
        a.steps.append(AuthStep::fromJson(s.toObject()));
    a.issuer = o.value("issuer"_L1).toString();
    a.resource = o.value("resource"_L1).toString();
    a.clientId = o.value("client_id"_L1).toString();
    a.clientIdSource = o.value("client_id_source"_L1).toString();
    a.secretStore = o.value("secret_store"_L1).toString();
    a.error = o.value("error"_L1).toString();
    a.expiresAtMs = o.value("expires_at_ms"_L1).toInteger();
    a.authorizationUrl =
        QUrl::fromEncoded(o.value("authorization_url"_L1).toString().toUtf8(), QUrl::StrictMode);
    return a;
}

QString authActionName(AuthAction action)
{
    return enumName(AuthActionNames, action);
}

std::optional<AuthAction> authActionFromName(QStringView name)
{
    return enumFromName<AuthAction>(AuthActionNames, name);
}

} // namespace Sonde

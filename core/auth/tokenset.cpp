// SPDX-License-Identifier: MIT
#include "auth/tokenset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

ClientIdentity::Source sourceFromName(const QString &name)
{
    for (auto s : {ClientIdentity::Source::PreRegistered, ClientIdentity::Source::Cimd,
                   ClientIdentity::Source::DynamicRegistration})
        if (ClientIdentity::sourceName(s) == name)
            return s;
    return ClientIdentity::Source::None;
}

} // namespace

QByteArray TokenSet::toStored() const
{
    QJsonObject o{{"access_token"_L1, accessToken},
                  {"expires_at_ms"_L1, expiresAtMs},
                  {"scopes"_L1, QJsonArray::fromStringList(scopes)},
                  {"resource"_L1, resource},
                  {"token_endpoint"_L1, tokenEndpoint.toString()},
                  {"issuer"_L1, identity.issuer},
                  {"client_id"_L1, identity.clientId},
                  {"client_id_source"_L1, ClientIdentity::sourceName(identity.source)},
                  {"token_endpoint_auth_method"_L1, identity.authMethod}};
    if (!refreshToken.isEmpty())
        o.insert("refresh_token"_L1, refreshToken);
    // A pre-registered secret is the configuration's; only a registered one is kept here.
    if (!identity.clientSecret.isEmpty() &&
        identity.source == ClientIdentity::Source::DynamicRegistration)
        o.insert("client_secret"_L1, identity.clientSecret);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<TokenSet> TokenSet::fromStored(const QByteArray &bytes)
{
    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
    if (o.value("access_token"_L1).toString().isEmpty())
        return std::nullopt;
    TokenSet t;
    t.accessToken = o.value("access_token"_L1).toString();
    t.refreshToken = o.value("refresh_token"_L1).toString();
    t.expiresAtMs = o.value("expires_at_ms"_L1).toInteger();
    for (const QJsonValue &v : o.value("scopes"_L1).toArray())
        t.scopes.append(v.toString());
    t.resource = o.value("resource"_L1).toString();
    t.tokenEndpoint = QUrl(o.value("token_endpoint"_L1).toString());
    t.identity.issuer = o.value("issuer"_L1).toString();
    t.identity.clientId = o.value("client_id"_L1).toString();
    t.identity.clientSecret = o.value("client_secret"_L1).toString();
    t.identity.source = sourceFromName(o.value("client_id_source"_L1).toString());
    t.identity.authMethod = o.value("token_endpoint_auth_method"_L1).toString();
    return t;
}

} // namespace Sonde

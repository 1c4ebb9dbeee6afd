// SPDX-License-Identifier: MIT
#include "auth/clientidentity.h"

#include "auth/authorizationservermetadata.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

QString ClientIdentity::sourceName(Source source)
{
    switch (source) {
    case Source::None:
        return {};
    case Source::PreRegistered:
        return u"pre-registered"_s;
    case Source::Cimd:
        return u"cimd"_s;
    case Source::DynamicRegistration:
        return u"dynamic-registration"_s;
    }
    return {};
}

ClientIdentity::Plan ClientIdentity::plan(const QString &configClientId,
                                          const QUrl &clientMetadataUrl,
                                          const AuthorizationServerMetadata &server)
{
    if (!configClientId.isEmpty())
        return {Source::PreRegistered, u"pre-registered: the configuration names a client id"_s};
    const bool httpsUrl = clientMetadataUrl.scheme() == "https"_L1 &&
                          !clientMetadataUrl.path().isEmpty() && clientMetadataUrl.path() != "/"_L1;
    if (server.clientIdMetadataDocumentSupported && httpsUrl)
        return {Source::Cimd,
                u"CIMD because the AS advertises client_id_metadata_document_supported"_s};
    if (server.registrationEndpoint.isValid() && !server.registrationEndpoint.isEmpty())
        return {Source::DynamicRegistration,
                server.clientIdMetadataDocumentSupported
                    ? u"dynamic registration: the AS supports CIMD but no https client id URL is "
                      u"configured"_s
                    : u"dynamic registration: the AS advertises a registration_endpoint"_s};
    return {Source::None,
            u"no client identity: no client id is configured, the AS offers no CIMD%1 and no "
            u"registration_endpoint"_s.arg(server.clientIdMetadataDocumentSupported
                                               ? u" usable without an https client id URL"_s
                                               : QString())};
}

QString ClientIdentity::authMethodFor(const AuthorizationServerMetadata &server, bool hasSecret)
{
    const QStringList offered = server.tokenEndpointAuthMethods.isEmpty()
                                    ? QStringList{u"client_secret_basic"_s}
                                    : server.tokenEndpointAuthMethods;
    const QStringList preference =
        hasSecret ? QStringList{u"client_secret_basic"_s, u"client_secret_post"_s, u"none"_s}
                  : QStringList{u"none"_s, u"client_secret_basic"_s, u"client_secret_post"_s};
    for (const QString &m : preference)
        if (offered.contains(m))
            return m;
    return hasSecret ? u"client_secret_basic"_s : u"none"_s;
}

QJsonObject ClientIdentity::registrationRequest(const QUrl &redirectUri, const QString &authMethod,
                                                const QString &scope)
{
    QJsonObject o{{"client_name"_L1, u"Sonde"_s},
                  {"application_type"_L1, u"native"_s},
                  {"redirect_uris"_L1, QJsonArray{redirectUri.toString()}},
                  {"grant_types"_L1, QJsonArray{u"authorization_code"_s, u"refresh_token"_s}},
                  {"response_types"_L1, QJsonArray{u"code"_s}},
                  {"token_endpoint_auth_method"_L1, authMethod}};
    if (!scope.isEmpty())
        o.insert("scope"_L1, scope);
    return o;
}

} // namespace Sonde

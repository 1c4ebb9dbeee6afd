// SPDX-License-Identifier: MIT
#include "auth/authorizationservermetadata.h"

#include "auth/jsonstrings.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QUrl url(const QJsonObject &json, QLatin1StringView key)
{
    return QUrl(json.value(key).toString(), QUrl::StrictMode);
}

} // namespace

AuthorizationServerMetadata AuthorizationServerMetadata::fromJson(const QJsonObject &json)
{
    AuthorizationServerMetadata m;
    m.issuer = json.value("issuer"_L1).toString();
    m.authorizationEndpoint = url(json, "authorization_endpoint"_L1);
    m.tokenEndpoint = url(json, "token_endpoint"_L1);
    m.registrationEndpoint = url(json, "registration_endpoint"_L1);
    m.scopesSupported = jsonStrings(json.value("scopes_supported"_L1));
    m.codeChallengeMethods = jsonStrings(json.value("code_challenge_methods_supported"_L1));
    m.tokenEndpointAuthMethods =
        jsonStrings(json.value("token_endpoint_auth_methods_supported"_L1));
    m.clientIdMetadataDocumentSupported =
        json.value("client_id_metadata_document_supported"_L1).toBool();
    m.issParameterSupported =
        json.value("authorization_response_iss_parameter_supported"_L1).toBool();
    return m;
}

QString AuthorizationServerMetadata::problem(const QString &expectedIssuer) const
{
    if (issuer != expectedIssuer)
        return u"the authorization server metadata names issuer \"%1\", not \"%2\" it was fetched "
               u"for (RFC 8414 §3.3, auth/metadata-issuer-mismatch)"_s.arg(issuer, expectedIssuer);
    if (!authorizationEndpoint.isValid() || authorizationEndpoint.isEmpty())
        return u"the authorization server metadata has no authorization_endpoint"_s;
    if (!tokenEndpoint.isValid() || tokenEndpoint.isEmpty())
        return u"the authorization server metadata has no token_endpoint"_s;
    if (!codeChallengeMethods.contains("S256"_L1))
        return codeChallengeMethods.isEmpty()
                   ? u"the authorization server does not advertise PKCE "
                     u"(no code_challenge_methods_supported): refusing to proceed"_s
                   : u"the authorization server does not support PKCE S256 "
                     u"(code_challenge_methods_supported: %1)"_s.arg(
                         codeChallengeMethods.join(u", "));
    return {};
}

} // namespace Sonde

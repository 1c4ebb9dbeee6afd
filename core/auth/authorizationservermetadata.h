// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde {

// An authorization server's metadata (RFC 8414 §2, OpenID Connect Discovery), as far as the
// client uses it, with the checks the spec asks for before any of it is used.
// Value; any thread.
struct AuthorizationServerMetadata
{
    QString issuer;
    QUrl authorizationEndpoint;
    QUrl tokenEndpoint;
    QUrl registrationEndpoint;
    QStringList scopesSupported;
    QStringList codeChallengeMethods;
    QStringList tokenEndpointAuthMethods; // empty: not advertised (RFC 8414: client_secret_basic)
    bool clientIdMetadataDocumentSupported = false;
    bool issParameterSupported = false; // RFC 9207 authorization_response_iss_parameter_supported
    bool fromWellKnown = true;          // false: the 2025-03-26 default endpoints

    static AuthorizationServerMetadata fromJson(const QJsonObject &json);
    // Empty when usable for `expectedIssuer` (the identifier the well-known URL was built from):
    // RFC 8414 §3.3 (issuer identical, simple string comparison), both endpoints present, and
    // PKCE S256 advertised (MCP: absent code_challenge_methods_supported means no PKCE, refuse).
    QString problem(const QString &expectedIssuer) const;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde {

struct AuthorizationServerMetadata;

// Who the client is at one authorization server, and how it authenticates at the token
// endpoint. Chosen in the spec's order (MCP "Client Registration Approaches"): pre-registered
// (the configuration's client id and secret), a Client ID Metadata Document (an https client id
// URL, when the server advertises client_id_metadata_document_supported), else dynamic
// registration (RFC 7591). An identity belongs to its issuer: after an authorization-server
// migration it is not reused (SEP-2352). The secret never leaves the engine except into the
// SecretStore. Value; any thread.
struct ClientIdentity
{
    enum class Source
    {
        None,
        PreRegistered,
        Cimd,
        DynamicRegistration,
    };
    Source source = Source::None;
    QString issuer;
    QString clientId;
    QString clientSecret;
    QString authMethod; // client_secret_basic, client_secret_post, none

    static QString sourceName(Source source); // "pre-registered", "cimd", "dynamic-registration"
    // Which way to get an identity, and why; Source::None with the reason when none is possible.
    struct Plan
    {
        Source source = Source::None;
        QString why;
    };
    static Plan plan(const QString &configClientId, const QUrl &clientMetadataUrl,
                     const AuthorizationServerMetadata &server);
    // The token endpoint authentication method for a client with or without a secret, from
    // what the server advertises (RFC 8414 §2: client_secret_basic when it says nothing).
    static QString authMethodFor(const AuthorizationServerMetadata &server, bool hasSecret);
    // The RFC 7591 registration request of a native client.
    static QJsonObject registrationRequest(const QUrl &redirectUri, const QString &authMethod,
                                           const QString &scope);
};

} // namespace Sonde

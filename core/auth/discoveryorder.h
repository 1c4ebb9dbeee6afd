// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace Sonde {

// Where the metadata documents are looked for, in the spec's order (docs/auth.md):
// protected resource metadata (RFC 9728 §3.1; MCP 2025-11-25 "Protected Resource Metadata
// Discovery"), authorization server metadata (RFC 8414 §3.1 and OpenID Connect Discovery, MCP
// "Authorization Server Metadata Discovery"), and the 2025-03-26 fallbacks for a server that
// publishes neither. Stateless, any thread.
class DiscoveryOrder
{
public:
    // The `resource_metadata` URL of the challenge when there is one, else the path-suffixed
    // well-known URL, then the root one.
    static QList<QUrl> protectedResource(const QUrl &serverUrl, const QUrl &resourceMetadata);
    // For an issuer with a path: OAuth with path insertion, OIDC with path insertion, OIDC
    // with path appending; without a path: OAuth, then OIDC.
    static QList<QUrl> authorizationServer(const QString &issuer);
    // 2025-03-26: without protected resource metadata, the MCP server's origin is the
    // authorization server.
    static QString legacyIssuer(const QUrl &serverUrl);
    // 2025-03-26: without authorization server metadata, these paths at the issuer's origin.
    struct Endpoints
    {
        QUrl authorization;
        QUrl token;
        QUrl registration;
    };
    static Endpoints legacyEndpoints(const QString &issuer);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "demohttpmessage.h"

#include <QString>

#include <optional>

namespace Sonde {

class DemoAuthServer;

// The MCP endpoint as an OAuth protected resource, for `--http ... --auth`: serves its
// RFC 9728 metadata at /.well-known/oauth-protected-resource/mcp and stands at the door of
// /mcp (every method, both eras). No valid bearer token: 401 with a WWW-Authenticate
// challenge naming the metadata and scope="mcp:read" (error="invalid_token" when a token was
// sent but is unknown, expired or revoked). A call of the write tool (increment-counter)
// without mcp:write: 403 insufficient_scope, before the tool runs. Thread: the server's;
// owned by DemoHttpServer, which asks it before anything reaches a DemoServer.
class DemoResourceGuard
{
public:
    DemoResourceGuard(QString origin, QString path, DemoAuthServer &authServer);
    QString resource() const { return m_origin + m_path; }
    QString metadataUrl() const;
    // The metadata document when `request` asks for it; nullopt otherwise.
    std::optional<DemoHttpResponse> serveMetadata(const DemoHttpRequest &request) const;
    // The refusal for an MCP request that may not pass; nullopt lets it through.
    std::optional<DemoHttpResponse> refusal(const DemoHttpRequest &request) const;
    // The tool that changes state, and so needs mcp:write.
    static QString writeTool();

private:
    DemoHttpResponse challenge(int status, const QString &error, const QString &description,
                               const QString &scope) const;
    static bool callsWriteTool(const QByteArray &body);

    QString m_origin, m_path;
    DemoAuthServer &m_authServer;
};

} // namespace Sonde

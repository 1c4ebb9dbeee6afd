// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde {

// An MCP server's protected resource metadata (RFC 9728 §2), as far as the client uses it.
// Value; any thread.
struct ProtectedResourceMetadata
{
    QString resource;
    QStringList authorizationServers;
    QStringList scopesSupported;

    // Empty `error`: a usable document (a `resource` and at least one authorization server).
    static ProtectedResourceMetadata fromJson(const QJsonObject &json, QString *error);
    // RFC 9728 §3.3 and MCP 2026-07-28: the document must describe the server being accessed:
    // the same origin, and the server's path at or below the resource's. Empty: it does.
    static QString resourceMismatch(const QString &resource, const QUrl &serverUrl);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/discoveryorder.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QUrl atOrigin(const QUrl &url, const QString &path)
{
    QUrl u;
    u.setScheme(url.scheme());
    u.setHost(url.host());
    u.setPort(url.port());
    u.setPath(path, QUrl::TolerantMode);
    return u;
}

// The path without its trailing slash: "/" and "" are no path (RFC 8414 §3.1).
QString significantPath(const QUrl &url)
{
    QString path = url.path(QUrl::FullyEncoded);
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

} // namespace

QList<QUrl> DiscoveryOrder::protectedResource(const QUrl &serverUrl, const QUrl &resourceMetadata)
{
    if (resourceMetadata.isValid() && !resourceMetadata.isEmpty())
        return {resourceMetadata};
    QList<QUrl> out;
    const QString path = significantPath(serverUrl);
    if (!path.isEmpty())
        out.append(atOrigin(serverUrl, u"/.well-known/oauth-protected-resource"_s + path));
    out.append(atOrigin(serverUrl, u"/.well-known/oauth-protected-resource"_s));
    return out;
}

QList<QUrl> DiscoveryOrder::authorizationServer(const QString &issuer)
{
    const QUrl url(issuer);
    const QString path = significantPath(url);
    if (path.isEmpty())
        return {atOrigin(url, u"/.well-known/oauth-authorization-server"_s),
                atOrigin(url, u"/.well-known/openid-configuration"_s)};
    return {atOrigin(url, u"/.well-known/oauth-authorization-server"_s + path),
            atOrigin(url, u"/.well-known/openid-configuration"_s + path),
            atOrigin(url, path + u"/.well-known/openid-configuration"_s)};
}

QString DiscoveryOrder::legacyIssuer(const QUrl &serverUrl)
{
    return atOrigin(serverUrl, {}).toString();
}

DiscoveryOrder::Endpoints DiscoveryOrder::legacyEndpoints(const QString &issuer)
{
    const QUrl url(issuer);
    return {atOrigin(url, u"/authorize"_s), atOrigin(url, u"/token"_s),
            atOrigin(url, u"/register"_s)};
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/protectedresourcemetadata.h"

#include "auth/jsonstrings.h"

using namespace Qt::StringLiterals;

namespace Sonde {

ProtectedResourceMetadata ProtectedResourceMetadata::fromJson(const QJsonObject &json,
                                                              QString *error)
{
    ProtectedResourceMetadata m;
    m.resource = json.value("resource"_L1).toString();
    m.authorizationServers = jsonStrings(json.value("authorization_servers"_L1));
    m.scopesSupported = jsonStrings(json.value("scopes_supported"_L1));
    if (m.resource.isEmpty())
        *error = u"the protected resource metadata has no \"resource\""_s;
    else if (m.authorizationServers.isEmpty())
        *error = u"the protected resource metadata lists no authorization_servers"_s;
    else
        error->clear();
    return m;
}

QString ProtectedResourceMetadata::resourceMismatch(const QString &resource, const QUrl &serverUrl)
{
    const QUrl r(resource);
    const bool sameOrigin = r.scheme().compare(serverUrl.scheme(), Qt::CaseInsensitive) == 0 &&
                            r.host().compare(serverUrl.host(), Qt::CaseInsensitive) == 0 &&
                            r.port(-1) == serverUrl.port(-1);
    QString base = r.path();
    if (!base.endsWith(u'/'))
        base += u'/';
    QString path = serverUrl.path();
    if (!path.endsWith(u'/'))
        path += u'/';
    if (sameOrigin && path.startsWith(base))
        return {};
    return u"the protected resource metadata is for %1, not for %2 (auth/resource-mismatch)"_s.arg(
        resource, serverUrl.toString());
}

} // namespace Sonde

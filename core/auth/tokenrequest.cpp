// SPDX-License-Identifier: MIT
#include "auth/tokenrequest.h"

#include "auth/scopeselection.h"

#include <QJsonDocument>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QByteArray formEncode(const QString &s)
{
    // RFC 6749 Appendix B: every reserved character percent-encoded, space as "+".
    return QUrl::toPercentEncoding(s, {}, {}).replace("%20", "+");
}

} // namespace

TokenRequest TokenRequest::withClient(const ClientIdentity &identity,
                                      QList<QPair<QString, QString>> items)
{
    TokenRequest r;
    if (identity.authMethod == "client_secret_basic"_L1) {
        const QByteArray pair =
            formEncode(identity.clientId) + ':' + formEncode(identity.clientSecret);
        r.basic = "Basic " + pair.toBase64();
    } else {
        items.append({u"client_id"_s, identity.clientId});
        if (identity.authMethod == "client_secret_post"_L1)
            items.append({u"client_secret"_s, identity.clientSecret});
    }
    for (const auto &[key, value] : std::as_const(items)) {
        if (value.isEmpty())
            continue;
        if (!r.form.isEmpty())
            r.form += '&';
        r.form += formEncode(key) + '=' + formEncode(value);
    }
    return r;
}

TokenRequest TokenRequest::authorizationCode(const ClientIdentity &identity, const QString &code,
                                             const QUrl &redirectUri, const QByteArray &verifier,
                                             const QString &resource)
{
    return withClient(identity, {{u"grant_type"_s, u"authorization_code"_s},
                                 {u"code"_s, code},
                                 {u"redirect_uri"_s, redirectUri.toString()},
                                 {u"code_verifier"_s, QString::fromLatin1(verifier)},
                                 {u"resource"_s, resource}});
}

TokenRequest TokenRequest::refresh(const ClientIdentity &identity, const QString &refreshToken,
                                   const QString &resource, const QStringList &scopes)
{
    return withClient(identity, {{u"grant_type"_s, u"refresh_token"_s},
                                 {u"refresh_token"_s, refreshToken},
                                 {u"resource"_s, resource},
                                 {u"scope"_s, scopes.join(u' ')}});
}

TokenRequest::Grant TokenRequest::readAnswer(int status, const QByteArray &contentType,
                                             const QByteArray &body)
{
    Grant g;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonObject o = doc.object();
    if (!doc.isObject()) {
        g.error = u"the token endpoint answered HTTP %1 with %2, not a JSON token response: %3"_s
                      .arg(status)
                      .arg(contentType.isEmpty() ? u"no content type"_s
                                                 : QString::fromLatin1(contentType),
                           QString::fromUtf8(body.left(200)).simplified());
        return g;
    }
    if (status != 200 || o.contains("error"_L1)) {
        g.oauthError = o.value("error"_L1).toString();
        const QString description = o.value("error_description"_L1).toString();
        g.error = u"the token endpoint refused (HTTP %1): %2%3"_s.arg(status).arg(
            g.oauthError.isEmpty() ? u"no error code"_s : g.oauthError,
            description.isEmpty() ? QString() : u" (%1)"_s.arg(description));
        return g;
    }
    if (o.value("access_token"_L1).toString().isEmpty()) {
        g.error = u"the token endpoint's answer has no access_token"_s;
        return g;
    }
    // A grant with an error carries no token: nothing half-read is ever used.
    const QString type = o.value("token_type"_L1).toString();
    if (type.compare("bearer"_L1, Qt::CaseInsensitive) != 0) {
        g.error = u"the token endpoint issued a \"%1\" token, not a Bearer token"_s.arg(type);
        return g;
    }
    g.accessToken = o.value("access_token"_L1).toString();
    g.refreshToken = o.value("refresh_token"_L1).toString();
    g.expiresInSeconds = o.value("expires_in"_L1).toInteger();
    g.scopes = ScopeSelection::split(o.value("scope"_L1).toString());
    return g;
}

} // namespace Sonde

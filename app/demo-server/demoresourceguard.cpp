// SPDX-License-Identifier: MIT
#include "demoresourceguard.h"

#include "demoauthserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

DemoResourceGuard::DemoResourceGuard(QString origin, QString path, DemoAuthServer &authServer)
    : m_origin(std::move(origin)), m_path(std::move(path)), m_authServer(authServer)
{
}

QString DemoResourceGuard::writeTool()
{
    return u"increment-counter"_s;
}

QString DemoResourceGuard::metadataUrl() const
{
    // RFC 9728 §3.1: the well-known segment goes between the origin and the resource's path.
    return m_origin + "/.well-known/oauth-protected-resource"_L1 + m_path;
}

std::optional<DemoHttpResponse>
DemoResourceGuard::serveMetadata(const DemoHttpRequest &request) const
{
    if (request.path() != metadataUrl().mid(m_origin.size()).toUtf8())
        return std::nullopt;
    DemoHttpResponse r;
    if (request.method != "GET") {
        r.status = 405;
        r.addHeader("Allow", "GET");
        return r;
    }
    // offline_access is the AS's business, not a resource requirement (2026-07-28).
    r.status = 200;
    r.body = QJsonDocument(
                 QJsonObject{{"resource"_L1, resource()},
                             {"authorization_servers"_L1, QJsonArray{m_authServer.issuer()}},
                             {"scopes_supported"_L1, QJsonArray{"mcp:read"_L1, "mcp:write"_L1}},
                             {"bearer_methods_supported"_L1, QJsonArray{"header"_L1}},
                             {"resource_name"_L1, "Sonde demo server"_L1}})
                 .toJson(QJsonDocument::Compact);
    return r;
}

DemoHttpResponse DemoResourceGuard::challenge(int status, const QString &error,
                                              const QString &description,
                                              const QString &scope) const
{
    m_authServer.noteRefusal(status);
    // RFC 6750 §3: the parameters are quoted strings; none of ours holds a quote. No error
    // code when the request had no credentials at all (§3.1).
    QByteArray header = "Bearer ";
    if (!error.isEmpty())
        header += "error=\"" + error.toUtf8() + "\", error_description=\"" + description.toUtf8() +
                  "\", scope=\"" + scope.toUtf8() + "\", resource_metadata=\"" +
                  metadataUrl().toUtf8() + '"';
    else
        header +=
            "resource_metadata=\"" + metadataUrl().toUtf8() + "\", scope=\"" + scope.toUtf8() + '"';
    DemoHttpResponse r;
    r.status = status;
    r.body = QJsonDocument(QJsonObject{{"error"_L1, error.isEmpty() ? u"unauthorized"_s : error},
                                       {"error_description"_L1, description}})
                 .toJson(QJsonDocument::Compact);
    r.addHeader("WWW-Authenticate", header);
    return r;
}

bool DemoResourceGuard::callsWriteTool(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonArray messages = doc.isArray() ? doc.array() : QJsonArray{doc.object()};
    for (const QJsonValue &m : messages) {
        const QJsonObject o = m.toObject();
        if (o.value("method"_L1) == "tools/call"_L1 &&
            o.value("params"_L1).toObject().value("name"_L1) == writeTool())
            return true;
    }
    return false;
}

std::optional<DemoHttpResponse> DemoResourceGuard::refusal(const DemoHttpRequest &request) const
{
    const QByteArray authorization = request.headers.value("authorization");
    // The scheme is case-insensitive (RFC 9110 §11.1).
    if (!authorization.toLower().startsWith("bearer "))
        return challenge(401, {}, u"this server needs a bearer token (OAuth 2.1)"_s, u"mcp:read"_s);
    const DemoAuthServer::TokenCheck token = m_authServer.check(authorization.mid(7).trimmed());
    if (!token.valid)
        return challenge(401, u"invalid_token"_s, token.why, u"mcp:read"_s);
    // mcp:write includes reading (a broader scope implies the narrower one).
    const bool write = token.scopes.contains(u"mcp:write"_s);
    if (!write && !token.scopes.contains(u"mcp:read"_s))
        return challenge(403, u"insufficient_scope"_s, u"reading needs mcp:read"_s, u"mcp:read"_s);
    if (!write && request.method == "POST" && callsWriteTool(request.body))
        return challenge(403, u"insufficient_scope"_s,
                         u"the tool %1 changes state and needs mcp:write"_s.arg(writeTool()),
                         u"mcp:read mcp:write"_s);
    return std::nullopt;
}

} // namespace Sonde

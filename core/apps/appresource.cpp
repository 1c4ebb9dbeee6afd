// SPDX-License-Identifier: MIT
#include "appresource.h"

#include "protocol/mcpapps.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        if (s.isString())
            out << s.toString();
    return out;
}

} // namespace

std::optional<AppResource> AppResource::fromRead(const QString &uri, const QJsonObject &readResult,
                                                 const QJsonObject &listingUi, QString *error)
{
    auto refuse = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QJsonObject item;
    for (const QJsonValue &c : readResult.value("contents"_L1).toArray())
        if (c.toObject().value("uri"_L1).toString() == uri) {
            item = c.toObject();
            break;
        }
    if (item.isEmpty()) {
        const QJsonArray contents = readResult.value("contents"_L1).toArray();
        if (contents.size() != 1)
            return refuse(u"resources/read of %1 returned no content for that URI"_s.arg(uri));
        item = contents.first().toObject(); // one item under another URI: servers do that
    }
    AppResource r;
    r.uri = uri;
    r.mimeType = item.value("mimeType"_L1).toString();
    // Parameters after the type may be spaced or ordered otherwise; the profile must be there.
    QString normalized = r.mimeType;
    normalized.remove(u' ');
    if (normalized.compare(QLatin1StringView(McpApps::MimeType), Qt::CaseInsensitive) != 0)
        return refuse(u"%1 is %2, not %3: not an MCP App"_s.arg(
            uri, r.mimeType.isEmpty() ? u"untyped"_s : u"\"%1\""_s.arg(r.mimeType),
            QLatin1StringView(McpApps::MimeType)));
    if (item.value("text"_L1).isString()) {
        r.html = item.value("text"_L1).toString().toUtf8();
    } else if (item.value("blob"_L1).isString()) {
        const auto decoded = QByteArray::fromBase64Encoding(
            item.value("blob"_L1).toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return refuse(u"%1: its blob is not valid base64"_s.arg(uri));
        r.html = *decoded;
    } else {
        return refuse(u"%1 has neither text nor a blob"_s.arg(uri));
    }
    const QJsonObject ui = item.value("_meta"_L1).toObject().value("ui"_L1).isObject()
                               ? item.value("_meta"_L1).toObject().value("ui"_L1).toObject()
                               : listingUi;
    if (ui.value("csp"_L1).isObject()) {
        const QJsonObject csp = ui.value("csp"_L1).toObject();
        r.csp.declared = true;
        r.csp.connectDomains = strings(csp.value("connectDomains"_L1));
        r.csp.resourceDomains = strings(csp.value("resourceDomains"_L1));
        r.csp.frameDomains = strings(csp.value("frameDomains"_L1));
        r.csp.baseUriDomains = strings(csp.value("baseUriDomains"_L1));
    }
    const QJsonObject permissions = ui.value("permissions"_L1).toObject();
    for (const char *p : {"camera", "microphone", "geolocation", "clipboardWrite"})
        if (permissions.contains(QLatin1StringView(p)))
            r.permissions << QString::fromLatin1(p);
    r.domain = ui.value("domain"_L1).toString();
    if (ui.value("prefersBorder"_L1).isBool())
        r.prefersBorder = ui.value("prefersBorder"_L1).toBool();
    return r;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// An App's ui:// resource as resources/read returned it, and what it declares in _meta.ui:
// the origins it may reach (csp), the browser permissions it asks for, a dedicated origin
// and whether it wants a border. apps.mdx: the content item's _meta.ui first, else the
// resources/list entry's. A value; any thread.
struct AppResource
{
    struct Csp
    {
        QStringList connectDomains;  // fetch, XHR, WebSocket
        QStringList resourceDomains; // scripts, styles, images, fonts, media
        QStringList frameDomains;    // nested frames
        QStringList baseUriDomains;  // <base href>
        bool declared = false;       // _meta.ui.csp was there at all
    };

    QString uri;
    QString mimeType;
    QByteArray html;
    Csp csp;
    QStringList permissions; // of camera, microphone, geolocation, clipboardWrite
    QString domain;
    std::optional<bool> prefersBorder;

    // The App in `readResult` (a resources/read result) for `uri`. Refused, with `error`
    // saying why in a sentence the window shows: no content for the URI, a type other than
    // text/html;profile=mcp-app, neither text nor a base64 blob.
    static std::optional<AppResource> fromRead(const QString &uri, const QJsonObject &readResult,
                                               const QJsonObject &listingUi, QString *error);
};

} // namespace Sonde

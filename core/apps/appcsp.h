// SPDX-License-Identifier: MIT
#pragma once

#include "apps/appresource.h"

#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde::AppCsp {

// The content security policy an App runs under, built from what its resource declared
// (apps.mdx, "Security Implications"): connect-src from connectDomains, the
// script/style/img/font/media sources from resourceDomains, frame-src from frameDomains,
// base-uri from baseUriDomains; nothing declared, no network at all (the spec's default,
// restricted further: no frames, no plugins). Scripts and styles inline in the App's own
// document run ('unsafe-inline'); eval does not.
struct Built
{
    QString policy;
    // Declared sources that were left out, each with why ("*" opens every origin, a quote
    // or ';' would inject a directive...): the App's log shows them.
    QStringList refused;
};
Built build(const AppResource::Csp &csp);

// Whether `source` is one origin (a scheme and host, a *. subdomain wildcard, a port) that
// can stand in a CSP source list as it is; `why` says what is wrong otherwise.
bool acceptable(const QString &source, QString *why = nullptr);

// Whether a frame may be navigated to `url`: an http(s) URL whose origin one of the declared
// `frameDomains` names (scheme://host[:port]; a "*." host for its subdomains; no scheme:
// https). The host keeps the App's frame and its nested frames to these (and to the App's own
// document): a frame that could go anywhere would leave the App's policy behind.
bool frameAllowed(const QUrl &url, const QStringList &frameDomains);

} // namespace Sonde::AppCsp

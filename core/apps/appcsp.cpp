// SPDX-License-Identifier: MIT
#include "appcsp.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Sonde::AppCsp {

bool acceptable(const QString &source, QString *why)
{
    auto no = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (source.isEmpty())
        return no(u"empty"_s);
    static const QRegularExpression unsafe(u"[\\s;,'\"\\\\]"_s);
    if (source.contains(unsafe))
        return no(u"it holds a space, quote, comma, backslash or ';', which would change the "
                  u"policy itself"_s);
    if (source == "*"_L1)
        return no(u"\"*\" would open every origin"_s);
    // A scheme alone (https:, data:, blob:) is every origin of that scheme.
    static const QRegularExpression schemeOnly(u"^[A-Za-z][A-Za-z0-9+.-]*:$"_s);
    if (schemeOnly.match(source).hasMatch())
        return no(u"a scheme alone would open every origin of it"_s);
    // scheme://host[:port][/path], host may start with "*." (apps.mdx allows subdomain
    // wildcards); or a host without a scheme, as CSP allows.
    static const QRegularExpression origin(
        u"^(?:(?:https?|wss?)://"
        u")?(?:\\*\\.)?[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*(?::(?:\\d{1,5}|\\*))?"
        u"(?:/[^\\s]*)?$"_s);
    if (!origin.match(source).hasMatch())
        return no(u"not an origin (scheme://host[:port], *. for subdomains)"_s);
    return true;
}

bool frameAllowed(const QUrl &url, const QStringList &frameDomains)
{
    if (!url.isValid() || (url.scheme() != "https"_L1 && url.scheme() != "http"_L1))
        return false;
    const int port = url.port(url.scheme() == "https"_L1 ? 443 : 80);
    for (const QString &domain : frameDomains) {
        if (!acceptable(domain))
            continue;
        const QUrl pattern(domain.contains("://"_L1) ? domain : u"https://"_s + domain);
        if (pattern.scheme() != url.scheme())
            continue;
        QString host = pattern.host();
        const bool anySub = domain.contains("://*."_L1) || domain.startsWith("*."_L1);
        if (anySub) // QUrl keeps "*." out of a host: take it from the text
            host = domain.section(u"*."_s, 1).section(u'/', 0, 0).section(u':', 0, 0);
        const bool hostMatches = anySub ? url.host().endsWith(u'.' + host, Qt::CaseInsensitive)
                                        : url.host().compare(host, Qt::CaseInsensitive) == 0;
        const bool anyPort = domain.section(u'/', 2, 2).endsWith(":*"_L1);
        const int wanted = anyPort ? port : pattern.port(pattern.scheme() == "https"_L1 ? 443 : 80);
        if (hostMatches && port == wanted)
            return true;
    }
    return false;
}

Built build(const AppResource::Csp &csp)
{
    Built b;
    auto take = [&b](const QStringList &declared, const QString &field) {
        QStringList kept;
        for (const QString &s : declared) {
            QString why;
            if (acceptable(s, &why))
                kept << s;
            else
                b.refused << u"%1 \"%2\": %3"_s.arg(field, s.left(200), why);
        }
        kept.removeDuplicates();
        return kept.join(u' ');
    };
    const QString connect = take(csp.connectDomains, u"connectDomains"_s);
    const QString resources = take(csp.resourceDomains, u"resourceDomains"_s);
    const QString frames = take(csp.frameDomains, u"frameDomains"_s);
    const QString bases = take(csp.baseUriDomains, u"baseUriDomains"_s);
    auto list = [](const QString &fixed, const QString &declared) {
        return declared.isEmpty() ? fixed : fixed + u' ' + declared;
    };
    QStringList d;
    d << u"default-src 'none'"_s;
    d << u"script-src "_s + list(u"'unsafe-inline'"_s, resources);
    d << u"style-src "_s + list(u"'unsafe-inline'"_s, resources);
    d << u"img-src "_s + list(u"data:"_s, resources);
    d << u"font-src "_s + (resources.isEmpty() ? u"data:"_s : u"data: "_s + resources);
    d << u"media-src "_s + list(u"data:"_s, resources);
    d << u"connect-src "_s + (connect.isEmpty() ? u"'none'"_s : connect);
    d << u"frame-src "_s + (frames.isEmpty() ? u"'none'"_s : frames);
    d << u"object-src 'none'"_s;
    d << u"base-uri "_s + (bases.isEmpty() ? u"'none'"_s : bases);
    d << u"form-action 'none'"_s;
    b.policy = d.join(u"; "_s);
    return b;
}

} // namespace Sonde::AppCsp

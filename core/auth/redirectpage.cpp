// SPDX-License-Identifier: MIT
#include "auth/redirectpage.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
QString serverName(const QString &server)
{
    return server.isEmpty() ? u"the server"_s : server;
}
} // namespace

RedirectPage RedirectPage::signedIn(const QString &server)
{
    // The code is in Sonde's hands; the token request follows without the browser.
    return {200, u"Signed in to %1"_s.arg(serverName(server)),
            u"Sonde received the authorization for %1 and finishes signing in. You can close "
            u"this tab."_s.arg(serverName(server))};
}

RedirectPage RedirectPage::refused(const QString &server, const QString &error,
                                   const QString &description)
{
    const QString what = description.isEmpty() ? error : u"%1: %2"_s.arg(error, description);
    return {200, u"Not signed in to %1"_s.arg(serverName(server)),
            u"The authorization server answered with an error, so Sonde did not sign in to %1. "
            u"%2. You can close this tab; Sonde says the same in its Authorization tab."_s.arg(
                serverName(server), what)};
}

RedirectPage RedirectPage::wrongState(const QString &server)
{
    return {400, u"Not the sign-in Sonde is waiting for"_s,
            u"This answer's state does not match the sign-in to %1 that Sonde started, so it "
            u"was not used (an old tab, or another sign-in). Sonde still waits for the answer "
            u"to its own request."_s.arg(serverName(server))};
}

RedirectPage RedirectPage::notFound()
{
    return {404, u"Not found"_s,
            u"This address only takes the answer of a sign-in that Sonde started."_s};
}

RedirectPage RedirectPage::badRequest(const QString &why)
{
    return {400, u"Bad request"_s, why};
}

RedirectPage RedirectPage::methodNotAllowed()
{
    return {405, u"Method not allowed"_s, u"Only GET reaches this address."_s};
}

QString RedirectPage::reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return u"OK"_s;
    case 400:
        return u"Bad Request"_s;
    case 404:
        return u"Not Found"_s;
    case 405:
        return u"Method Not Allowed"_s;
    case 431:
        return u"Request Header Fields Too Large"_s;
    default:
        return u"Error"_s;
    }
}

QByteArray RedirectPage::response() const
{
    const QByteArray body =
        (u"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         u"<meta name=\"viewport\" content=\"width=device-width\"><title>%1 — Sonde</title>"
         u"<style>body{font-family:sans-serif;max-width:40em;margin:4em auto;padding:0 1em;"
         u"line-height:1.5}</style></head>\n<body><h1>%1</h1>\n<p>%2</p></body></html>\n"_s.arg(
             title.toHtmlEscaped(), text.toHtmlEscaped()))
            .toUtf8();
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status).toLatin1() + "\r\n";
    head += "Content-Type: text/html; charset=utf-8\r\n"
            "Content-Length: " +
            QByteArray::number(body.size()) +
            "\r\n"
            // The page's URL holds the code: no cache keeps it, no link sends it on, and
            // nothing in it loads or runs.
            "Cache-Control: no-store\r\n"
            "Referrer-Policy: no-referrer\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            "Connection: close\r\n\r\n";
    return head + body;
}

} // namespace Sonde

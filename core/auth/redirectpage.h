// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace Sonde {

// What the loopback redirect listener answers the browser with: a whole HTTP response with a
// short HTML page, so the tab the authorization server sent back says what happened instead
// of "empty reply". Every text that came from the request (the server's error, its
// description) is HTML-escaped; the page loads nothing and runs nothing. A value.
struct RedirectPage
{
    int status = 200;
    QString title;
    QString text; // plain text, escaped when the page is made

    // The redirect Sonde waited for, with a code.
    static RedirectPage signedIn(const QString &server);
    // The redirect Sonde waited for, carrying the authorization server's error.
    static RedirectPage refused(const QString &server, const QString &error,
                                const QString &description);
    // A request on the callback path whose state is not the flow's: not the answer awaited
    // (a stale tab, another flow, a forged request); the flow still waits.
    static RedirectPage wrongState(const QString &server);
    static RedirectPage notFound();
    static RedirectPage badRequest(const QString &why);
    static RedirectPage methodNotAllowed();

    // The status line, headers and body, ready for the socket.
    QByteArray response() const;
    static QString reasonPhrase(int status);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

namespace Sonde {

// The challenges of WWW-Authenticate headers (RFC 9110 §11.6.1): one header may carry several
// challenges and a response may carry several headers; parameter values are tokens or quoted
// strings (with \" escapes and commas inside); a challenge may carry a token68 instead of
// parameters. Scheme and parameter names are case-insensitive (kept lower-case here).
// Stateless, any thread.
class WwwAuthenticate
{
public:
    struct Challenge
    {
        QString scheme; // lower-case
        QString token68;
        QMap<QString, QString> params; // names lower-case
    };
    // What a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1) tells the client.
    struct Bearer
    {
        bool present = false;
        QString resourceMetadata;
        QString scope;
        QString error;
        QString errorDescription;
    };

    static QList<Challenge> parse(const QList<QByteArray> &headers);
    // The first Bearer challenge among `headers`.
    static Bearer bearer(const QList<QByteArray> &headers);
};

} // namespace Sonde

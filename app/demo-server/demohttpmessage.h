// SPDX-License-Identifier: MIT
#pragma once
// One HTTP request as DemoHttpServer parsed it, and an answer to write back: the values the
// authorization pieces (DemoAuthServer, DemoResourceGuard) take and give, so they know
// nothing of sockets.

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

namespace Sonde {

struct DemoHttpRequest
{
    QByteArray method, target; // target: the path with its query, as on the request line
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    bool fromLoopback = false; // the peer's address, not its Host header

    QByteArray path() const
    {
        const qsizetype q = target.indexOf('?');
        return q < 0 ? target : target.left(q);
    }
    // The query's fields, decoded as a form is ('+' is a space).
    QHash<QString, QString> query() const
    {
        const qsizetype q = target.indexOf('?');
        return q < 0 ? QHash<QString, QString>() : form(target.mid(q + 1));
    }
    // application/x-www-form-urlencoded; a repeated name keeps its first value.
    static QHash<QString, QString> form(const QByteArray &text)
    {
        QHash<QString, QString> fields;
        for (const QByteArray &pair : text.split('&')) {
            if (pair.isEmpty())
                continue;
            const qsizetype eq = pair.indexOf('=');
            auto decode = [](QByteArray part) {
                return QString::fromUtf8(QByteArray::fromPercentEncoding(part.replace('+', ' ')));
            };
            const QString name = decode(eq < 0 ? pair : pair.left(eq));
            if (!fields.contains(name))
                fields.insert(name, eq < 0 ? QString() : decode(pair.mid(eq + 1)));
        }
        return fields;
    }
};

struct DemoHttpResponse
{
    int status = 0;
    QByteArray body;
    QByteArray contentType = "application/json";
    QList<QPair<QByteArray, QByteArray>> headers;

    void addHeader(const QByteArray &name, const QByteArray &value)
    {
        headers.append(QPair<QByteArray, QByteArray>(name, value));
    }
};

} // namespace Sonde

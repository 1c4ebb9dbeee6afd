// SPDX-License-Identifier: MIT
#pragma once

#include "transport/transport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

namespace Sonde {

using namespace Qt::StringLiterals;

// A transport the test drives by hand: it records what the session sends and delivers
// whatever frames the test writes, with no process or socket involved.
class FakeTransport final : public Transport
{
public:
    QList<QJsonObject> sent;
    bool open_ = false;
    void open() override
    {
        open_ = true;
        Q_EMIT opened();
    }
    void send(const QByteArray &frame) override
    {
        sent.append(QJsonDocument::fromJson(frame).object());
    }
    void close() override
    {
        open_ = false;
        Q_EMIT closed(Error());
    }
    bool isOpen() const override { return open_; }
    QJsonObject details() const override { return {{"fake"_L1, true}}; }

    void deliver(const QByteArray &frame) { Q_EMIT frameReceived(frame); }
    void deliver(const QJsonObject &o) { deliver(QJsonDocument(o).toJson(QJsonDocument::Compact)); }
    void answer(const QJsonObject &request, const QJsonObject &result)
    {
        deliver(QJsonObject{{QLatin1String("jsonrpc"), QLatin1String("2.0")},
                            {QLatin1String("id"), request.value(QLatin1String("id"))},
                            {QLatin1String("result"), result}});
    }
    void answerError(const QJsonObject &request, int code, const QString &message)
    {
        deliver(QJsonObject{
            {QLatin1String("jsonrpc"), QLatin1String("2.0")},
            {QLatin1String("id"), request.value(QLatin1String("id"))},
            {QLatin1String("error"),
             QJsonObject{{QLatin1String("code"), code}, {QLatin1String("message"), message}}}});
    }
    void die(const QString &why)
    {
        open_ = false;
        Q_EMIT closed(Error::transport(why, Error::Condition::Closed));
    }
    QJsonObject last() const { return sent.value(sent.size() - 1); }
    QList<QJsonObject> sentWithMethod(const QString &m) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &o : sent)
            if (o.value("method"_L1).toString() == m)
                out.append(o);
        return out;
    }
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "transport/httpcontrol.h"
#include "transport/processcontrol.h"
#include "transport/transport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

#include <functional>

namespace Sonde {

using namespace Qt::StringLiterals;

class FakeTransport;

// The route hooks faults use, for a FakeTransport that plays a child process or an HTTP
// route: they count what a fault asked of the route.
struct FakeProcess final : ProcessControl
{
    FakeTransport *transport = nullptr;
    int kills = 0;
    qint64 processId() const override { return 4242; }
    bool kill() override { return ++kills > 0; }
    void declareKilled(const Error &reason) override;
};

struct FakeHttp final : HttpControl
{
    int drops = 0;
    QString session = u"s-1"_s;
    std::function<void(int)> deleted; // an expire-session DELETE under way
    int openExchanges() const override { return 1; }
    void dropConnections() override { ++drops; }
    bool answersEachPost() const override { return true; }
    QString url() const override { return u"http://127.0.0.1/mcp"_s; }
    QString sessionId() const override { return session; }
    void setSessionId(const QString &id) override { session = id; }
    bool endSessionOnServer(std::function<void(int)> done) override
    {
        deleted = std::move(done);
        return true;
    }
};

// A transport the test drives by hand: it records what the session sends and delivers
// whatever frames the test writes, with no process or socket involved.
class FakeTransport final : public Transport
{
public:
    FakeProcess process;
    FakeHttp http;
    bool playsProcess = false; // offer `process` to faults
    bool playsHttp = false;    // offer `http` to faults
    ProcessControl *processControl() override { return playsProcess ? &process : nullptr; }
    HttpControl *httpControl() override { return playsHttp ? &http : nullptr; }

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
    TransportDetails details() const override { return {}; }
    // Plays a Streamable HTTP route: on a reconnect the old transport drains (it stays, and
    // answers still come through it) instead of being torn down.
    bool drains = false;
    bool drained = false;
    bool canDrain() const override { return drains; }
    void drain() override
    {
        if (!drains)
            return Transport::drain();
        drained = true;
    }

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
    void die(const Error &reason)
    {
        open_ = false;
        Q_EMIT closed(reason);
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

inline void FakeProcess::declareKilled(const Error &reason)
{
    if (transport->isOpen())
        transport->die(reason);
}

} // namespace Sonde

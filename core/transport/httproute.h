// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "transport/authorizationgate.h"
#include "transport/httpcontrol.h"
#include "transport/httpexchangerecord.h"
#include "transport/transport.h"

#include <QHash>
#include <QNetworkReply>

namespace Sonde {

// What both HTTP routes keep alike: the configuration, the network manager they are handed,
// their open replies (each with the route's own record, `Entry`, which has `abandoned` and
// `sse`), and the lifecycle that ends in one closed(). An abandoned reply finishes without
// being looked at. Not a QObject of its own (a template): the routes are.
// Thread: the engine's, where the replies live.
template <class Entry> class HttpRoute : public Transport, public HttpControl
{
public:
    explicit HttpRoute(const ServerConfig &config, QObject *parent)
        : Transport(parent), m_config(config), m_gate(this)
    {
    }
    ~HttpRoute() override
    {
        const QList<QNetworkReply *> replies = m_replies.keys();
        for (QNetworkReply *r : replies) {
            r->disconnect(this);
            r->abort();
            r->deleteLater();
        }
    }

    // Before open(); the manager outlives this transport.
    void setNetworkManager(QNetworkAccessManager *nam) { m_nam = nam; }
    // Before open(); the credentials outlive this transport (they span reconnects).
    void setAuthorization(HttpAuthorization *authorization)
    {
        m_gate.setAuthorization(authorization);
    }
    bool isOpen() const override { return m_open && !m_closing && !m_finished; }
    HttpControl *httpControl() override { return this; }
    QString url() const override { return m_config.url.toString(); }
    int openExchanges() const override { return int(m_replies.size()); }
    void dropConnections() override
    {
        const QList<QNetworkReply *> replies = m_replies.keys();
        for (QNetworkReply *r : replies)
            if (m_replies.contains(r))
                r->abort();
    }
    // A teardown for a reconnect: every reply goes, and no goodbye is owed.
    void abort() override
    {
        if (m_finished)
            return;
        m_closing = true;
        abandonAll();
        Q_EMIT lifecycleEvent(
            LifecycleDetails::TornDown{QStringLiteral("not sent: the session is being replaced")});
        finish(Error());
    }

protected:
    virtual void onReadyRead(QNetworkReply *reply) = 0;
    virtual void onFinished(QNetworkReply *reply) = 0;

    // `body`: what the request carried, for its http-exchange event.
    QNetworkReply *track(QNetworkReply *reply, Entry entry, const QByteArray &body = {})
    {
        entry.sse.setMaxEventBytes(m_config.maxFrameBytes);
        if (m_config.recordHttpExchanges)
            entry.exchange.begin(reply, body);
        m_replies.insert(reply, std::move(entry));
        QObject::connect(reply, &QNetworkReply::readyRead, this,
                         [this, reply] { onReadyRead(reply); });
        // The headers alone decide what an answer is: SDK servers flush an SSE stream's
        // headers at once and its first byte only with a message or a keepalive comment 15 s
        // later, and a stream is open from its headers, not from that byte.
        QObject::connect(reply, &QNetworkReply::metaDataChanged, this,
                         [this, reply] { onReadyRead(reply); });
        QObject::connect(reply, &QNetworkReply::finished, this,
                         [this, reply] { onFinished(reply); });
        return reply;
    }
    void abandonAll()
    {
        const QList<QNetworkReply *> replies = m_replies.keys();
        for (QNetworkReply *r : replies) {
            if (const auto it = m_replies.find(r); it != m_replies.end()) {
                it->abandoned = true;
                r->abort();
            }
        }
    }
    // The http-exchange event of a reply that finished (not for a transport already closed:
    // nobody listens any more).
    void recordExchange(Entry &entry, QNetworkReply *reply, const QByteArray &body)
    {
        if (!m_finished && entry.exchange.isStarted())
            Q_EMIT lifecycleEvent(entry.exchange.finish(reply, body));
    }
    void finish(const Error &reason)
    {
        if (m_finished)
            return;
        m_finished = true;
        m_open = false;
        Q_EMIT closed(reason);
    }

    ServerConfig m_config;
    QNetworkAccessManager *m_nam = nullptr;
    AuthorizationGate m_gate;
    QHash<QNetworkReply *, Entry> m_replies;
    bool m_open = false;
    bool m_closing = false;
    bool m_finished = false;
};

} // namespace Sonde

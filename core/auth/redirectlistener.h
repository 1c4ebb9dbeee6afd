// SPDX-License-Identifier: MIT
#pragma once

#include "auth/redirectpage.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QUrl>

#include <functional>

class QTcpServer;
class QTcpSocket;

namespace Sonde {

// The OAuth redirect listener: a small HTTP server on 127.0.0.1 (never another interface) on
// a free port, whose callback URI the authorization server sends the browser back to. Every
// request gets a whole HTTP answer with a page (RedirectPage): a GET of the callback path is
// the owner's to judge (`decide`: its page, and whether it is the awaited answer); another
// path is 404, another method 405, a Host that is not this listener's address 400 (a page
// of another site reaching the port through DNS rebinding), an oversized request 431.
// Once an answer is accepted nothing more is listened to; a page already being written is
// finished even when the listener is deleted meanwhile. Not QtNetworkAuth's
// QOAuthHttpServerReplyHandler: in Qt 6.4 it writes one fixed page, only on its path, after
// telling its owner (who closed it before the page went out: an empty reply), and nothing at
// all for any other request. Thread: the one that creates it (the engine's).
class RedirectListener : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QList<QPair<QString, QString>> query; // decoded as a form (+ is a space)
        QString value(const QString &key) const;
        bool contains(const QString &key) const;
    };
    struct Answer
    {
        RedirectPage page;
        bool accepted = false; // the awaited redirect: the listener closes after it
    };
    using Decide = std::function<Answer(const Request &)>;
    using Accepted = std::function<void(const Request &)>;

    // The most requests held at once (a browser opens a few speculatively) and the largest
    // request head read: a redirect is one short GET.
    static constexpr int MaxConnections = 16;
    static constexpr int MaxRequestBytes = 16 * 1024;

    RedirectListener(Decide decide, Accepted accepted, QObject *parent = nullptr);
    ~RedirectListener() override;

    // Listens on 127.0.0.1, a free port; false with the reason.
    bool listen(QString *error);
    // http://127.0.0.1:<port>/: what the authorization server is given as redirect_uri.
    QUrl callback() const;
    // 0 once closed.
    quint16 port() const;
    // No new connection and no new request is taken; pages being written are finished.
    void close();

private:
    void onConnection();
    void onReadyRead(QTcpSocket *socket);
    void reply(QTcpSocket *socket, const RedirectPage &page);
    Answer answer(const QByteArray &head, Request *request) const;

    Decide m_decide;
    Accepted m_accepted;
    QTcpServer *m_server = nullptr;
    quint16 m_port = 0;
    QHash<QTcpSocket *, QByteArray> m_reading; // sockets whose request is not whole yet
};

} // namespace Sonde

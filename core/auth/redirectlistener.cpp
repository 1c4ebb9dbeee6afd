// SPDX-License-Identifier: MIT
#include "auth/redirectlistener.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString formDecoded(QByteArray part)
{
    part.replace('+', ' ');
    return QString::fromUtf8(QByteArray::fromPercentEncoding(part));
}

QList<QPair<QString, QString>> queryOf(const QByteArray &target)
{
    QList<QPair<QString, QString>> items;
    const qsizetype q = target.indexOf('?');
    if (q < 0)
        return items;
    for (const QByteArray &pair : target.mid(q + 1).split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        items.append({formDecoded(eq < 0 ? pair : pair.left(eq)),
                      eq < 0 ? QString() : formDecoded(pair.mid(eq + 1))});
    }
    return items;
}

// A socket whose page is out (or being written) goes by itself once the peer has it, or
// after a bound when the peer never reads it.
void letGo(QTcpSocket *socket)
{
    QObject::disconnect(socket, &QTcpSocket::readyRead, nullptr, nullptr);
    QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    QTimer::singleShot(10'000, socket, [socket] {
        socket->abort();
        socket->deleteLater();
    });
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState)
        socket->deleteLater();
}

} // namespace

QString RedirectListener::Request::value(const QString &key) const
{
    for (const auto &[k, v] : query)
        if (k == key)
            return v;
    return {};
}

bool RedirectListener::Request::contains(const QString &key) const
{
    for (const auto &[k, v] : query)
        if (k == key)
            return true;
    return false;
}

RedirectListener::RedirectListener(Decide decide, Accepted accepted, QObject *parent)
    : QObject(parent), m_decide(std::move(decide)), m_accepted(std::move(accepted))
{
}

RedirectListener::~RedirectListener()
{
    close();
    // Pages still on their way are finished: the sockets leave with no parent and delete
    // themselves once written (letGo). A deleteLater, not a delete: this may run inside one
    // of their own signals.
    for (QTcpSocket *socket : findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly)) {
        socket->setParent(nullptr);
        if (socket->state() == QAbstractSocket::ClosingState)
            continue;
        socket->abort();
        socket->deleteLater();
    }
}

bool RedirectListener::listen(QString *error)
{
    m_server = new QTcpServer(this);
    m_server->setMaxPendingConnections(MaxConnections);
    // 127.0.0.1 only: the redirect comes from this machine's browser, and nothing else may
    // reach the port (RFC 8252 §7.3).
    if (!m_server->listen(QHostAddress(QHostAddress::LocalHost), 0)) {
        if (error)
            *error =
                u"cannot listen on 127.0.0.1 for the redirect: %1"_s.arg(m_server->errorString());
        delete m_server;
        m_server = nullptr;
        return false;
    }
    m_port = m_server->serverPort();
    connect(m_server, &QTcpServer::newConnection, this, &RedirectListener::onConnection);
    return true;
}

QUrl RedirectListener::callback() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(m_port);
    url.setPath(u"/"_s);
    return url;
}

quint16 RedirectListener::port() const
{
    return m_server && m_server->isListening() ? m_port : 0;
}

void RedirectListener::close()
{
    if (m_server)
        m_server->close();
    // Requests not read whole yet are not answered any more.
    for (QTcpSocket *socket : m_reading.keys()) {
        socket->abort();
        socket->deleteLater();
    }
    m_reading.clear();
}

void RedirectListener::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        socket->setParent(this);
        if (m_reading.size() >= MaxConnections) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        m_reading.insert(socket, {});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            if (m_reading.remove(socket))
                socket->deleteLater();
        });
        if (socket->bytesAvailable())
            onReadyRead(socket);
    }
}

void RedirectListener::onReadyRead(QTcpSocket *socket)
{
    const auto it = m_reading.find(socket);
    if (it == m_reading.end())
        return;
    it->append(socket->readAll());
    qsizetype end = it->indexOf("\r\n\r\n");
    if (end < 0)
        end = it->indexOf("\n\n");
    if (end < 0) {
        if (it->size() > MaxRequestBytes) {
            m_reading.erase(it);
            reply(socket, {431, RedirectPage::reasonPhrase(431),
                           u"The request is larger than a redirect can be."_s});
        }
        return;
    }
    const QByteArray head = it->left(end);
    m_reading.erase(it);
    Request request;
    const Answer a = answer(head, &request);
    reply(socket, a.page);
    if (!a.accepted)
        return;
    close();
    // Last: the owner may delete this listener from here (it has its answer).
    if (m_accepted) {
        const Accepted accepted = m_accepted;
        accepted(request);
    }
}

RedirectListener::Answer RedirectListener::answer(const QByteArray &head, Request *request) const
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/"))
        return {RedirectPage::badRequest(u"This is not an HTTP request."_s)};
    // A browser sends the Host it was sent to: the callback's own. Another name pointing at
    // 127.0.0.1 (DNS rebinding) means a page of another site is asking.
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || line.left(colon).trimmed().toLower() != "host")
            continue;
        const QByteArray host = line.mid(colon + 1).trimmed().toLower();
        const QByteArray port = ':' + QByteArray::number(m_port);
        if (host != "127.0.0.1" + port && host != "localhost" + port)
            return {RedirectPage::badRequest(
                u"This address answers requests for 127.0.0.1:%1 only."_s.arg(m_port))};
    }
    if (requestLine.at(0) != "GET")
        return {RedirectPage::methodNotAllowed()};
    const QByteArray target = requestLine.at(1);
    const qsizetype q = target.indexOf('?');
    const QByteArray path = QByteArray::fromPercentEncoding(q < 0 ? target : target.left(q));
    if (path != "/")
        return {RedirectPage::notFound()};
    request->query = queryOf(target);
    return m_decide ? m_decide(*request) : Answer{RedirectPage::notFound()};
}

void RedirectListener::reply(QTcpSocket *socket, const RedirectPage &page)
{
    socket->write(page.response());
    letGo(socket);
}

} // namespace Sonde

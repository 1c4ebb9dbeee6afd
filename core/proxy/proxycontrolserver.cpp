// SPDX-License-Identifier: MIT
#include "proxy/proxycontrolserver.h"

#include "proxy/proxyeventfeed.h"
#include "proxy/proxysession.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
QJsonObject verdictJson(const ProxyVerdict &v)
{
    QJsonObject o{{u"id"_s, v.faultId},
                  {u"kind"_s, ProxyFault::info(v.kind).name},
                  {u"state"_s, ProxyVerdict::stateName(v.state)},
                  {u"summary"_s, v.summary}};
    if (v.afterMs >= 0)
        o.insert(u"after_ms"_s, v.afterMs);
    return o;
}

QJsonObject refusal(const QString &why)
{
    return QJsonObject{{u"ok"_s, false}, {u"error"_s, why}};
}

} // namespace

// One client of the socket: its lines answered one at a time, in order, a `verdict` that
// waits holding the lines after it; after `watch`, the session's events too.
class ControlConnection : public QObject
{
public:
    ControlConnection(QLocalSocket *socket, ProxyControlServer &server, ProxySession &session)
        : QObject(socket), m_socket(socket), m_server(server), m_session(session)
    {
        connect(socket, &QLocalSocket::readyRead, this, &ControlConnection::read);
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(&session.judge(), &ClientJudge::judged, this, [this](const ProxyVerdict &v) {
            if (m_waitingFor == v.faultId)
                answerWait();
        });
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, &ControlConnection::answerWait);
    }

private:
    void read()
    {
        m_buffer += m_socket->readAll();
        while (m_waitingFor == 0) {
            const qsizetype nl = m_buffer.indexOf('\n');
            if (nl < 0) {
                if (m_buffer.size() > ProxyControlServer::MaxLineBytes) {
                    m_buffer.clear();
                    write(refusal(u"a control line is over the 1 MiB limit"_s));
                }
                return;
            }
            const QByteArray line = m_buffer.left(nl).trimmed();
            m_buffer.remove(0, nl + 1);
            if (line.isEmpty())
                continue;
            QJsonParseError e;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &e);
            if (!doc.isObject()) {
                write(refusal(
                    e.error == QJsonParseError::NoError
                        ? u"a control line must be a JSON object"_s
                        : u"not JSON: %1 at offset %2"_s.arg(e.errorString()).arg(e.offset)));
                continue;
            }
            if (doc.object().value(u"op"_s) == "watch"_L1) {
                watch(doc.object());
                continue;
            }
            bool waits = false;
            const QJsonObject answer = m_server.handle(doc.object(), &waits);
            if (!waits) {
                write(answer);
                continue;
            }
            m_waitingFor = doc.object().value(u"id"_s).toInt();
            m_timer.start(
                qBound(0, doc.object().value(u"wait_ms"_s).toInt(), ProxyControlServer::MaxWaitMs));
        }
    }
    void answerWait()
    {
        const int id = std::exchange(m_waitingFor, 0);
        m_timer.stop();
        QJsonObject answer = verdictJson(m_session.judge().verdict(id));
        answer.insert(u"ok"_s, true);
        answer.insert(u"op"_s, u"verdict"_s);
        write(answer);
        QTimer::singleShot(0, this, &ControlConnection::read);
    }
    void write(const QJsonObject &answer)
    {
        m_socket->write(QJsonDocument(answer).toJson(QJsonDocument::Compact) + '\n');
    }
    // `backlog` (default true): the kept events first. `history: "window"`: the watcher
    // records what it is sent from now on, so the proxy stops recording it while the
    // watcher is connected, and each event is in the history once.
    void watch(const QJsonObject &request)
    {
        if (m_watching)
            return;
        m_watching = true;
        QJsonObject hello =
            m_server.m_feed->hello(m_server.m_label, QCoreApplication::applicationPid());
        if (request.value(u"history"_s) == "window"_L1) {
            hello.insert(u"history"_s, u"window"_s);
            m_server.historyWatcher(+1);
            connect(m_socket, &QLocalSocket::disconnected, &m_server,
                    [server = &m_server] { server->historyWatcher(-1); });
        }
        write(hello);
        if (request.value(u"backlog"_s).toBool(true)) {
            for (const QByteArray &l : m_server.m_feed->backlog())
                m_socket->write(l);
        }
        connect(m_server.m_feed.get(), &ProxyEventFeed::line, this, [this](const QByteArray &l) {
            // A watcher that stopped reading is dropped rather than grown without bound.
            if (m_socket->bytesToWrite() > 64 * 1024 * 1024) {
                m_socket->abort();
                return;
            }
            m_socket->write(l);
        });
    }

    QPointer<QLocalSocket> m_socket;
    ProxyControlServer &m_server;
    ProxySession &m_session;
    QByteArray m_buffer;
    int m_waitingFor = 0;
    bool m_watching = false;
    QTimer m_timer;
};

ProxyControlServer::ProxyControlServer(ProxySession &session, QString serverLabel, QObject *parent)
    : QObject(parent), m_session(session), m_label(std::move(serverLabel)),
      m_feed(std::make_unique<ProxyEventFeed>(session))
{
}

ProxyControlServer::~ProxyControlServer()
{
    for (const auto &server : m_servers)
        server->close(); // removes its socket file
}

bool ProxyControlServer::listen(const QString &path, QString *error)
{
    auto server = std::make_unique<QLocalServer>();
    server->setSocketOptions(QLocalServer::UserAccessOption);
    QLocalServer::removeServer(path);
    if (!server->listen(path)) {
        *error = u"control socket %1: %2"_s.arg(path, server->errorString());
        return false;
    }
    // UserAccessOption leaves the file 0700 on Linux; a socket needs no execute bit.
    QFile::setPermissions(server->fullServerName(), QFile::ReadOwner | QFile::WriteOwner);
    QLocalServer *s = server.get();
    connect(s, &QLocalServer::newConnection, this, [this, s] {
        while (QLocalSocket *socket = s->nextPendingConnection())
            new ControlConnection(socket, *this, m_session);
    });
    m_servers.push_back(std::move(server));
    return true;
}

void ProxyControlServer::historyWatcher(int delta)
{
    const bool before = m_historyWatchers > 0;
    m_historyWatchers += delta;
    if (before != (m_historyWatchers > 0))
        Q_EMIT historyTaken(m_historyWatchers > 0);
}

QString ProxyControlServer::announceDirectory(QString *error)
{
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    const QString dir = base + u"/sonde"_s;
    if (!QDir().mkpath(dir) ||
        !QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        *error = u"%1: cannot make a folder private to this user there"_s.arg(dir);
        return {};
    }
    return dir;
}

QString ProxyControlServer::announcePath(QString *error)
{
    const QString dir = announceDirectory(error);
    return dir.isEmpty() ? QString()
                         : u"%1/proxy-%2.sock"_s.arg(dir).arg(QCoreApplication::applicationPid());
}

QJsonObject ProxyControlServer::handle(const QJsonObject &request, bool *waits)
{
    *waits = false;
    const QString op = request.value(u"op"_s).toString();
    if (op == "fault"_L1) {
        QString error;
        const auto fault = ProxyFault::fromJson(request, m_session.http(), &error);
        if (!fault)
            return refusal(error);
        const int id = m_session.arm(*fault);
        QJsonObject answer = verdictJson(m_session.judge().verdict(id));
        answer.insert(u"ok"_s, true);
        answer.insert(u"op"_s, op);
        return answer;
    }
    if (op == "verdict"_L1) {
        const int id = request.value(u"id"_s).toInt();
        const ProxyVerdict v = m_session.judge().verdict(id);
        if (v.faultId == 0)
            return refusal(u"verdict: no fault with id %1"_s.arg(
                request.value(u"id"_s).toVariant().toString()));
        if (!v.known() && request.value(u"wait_ms"_s).toInt() > 0) {
            *waits = true;
            return {};
        }
        QJsonObject answer = verdictJson(v);
        answer.insert(u"ok"_s, true);
        answer.insert(u"op"_s, op);
        return answer;
    }
    if (op == "verdicts"_L1) {
        QJsonArray all;
        for (const ProxyVerdict &v : m_session.judge().verdicts())
            all.append(verdictJson(v));
        return QJsonObject{{u"ok"_s, true}, {u"op"_s, op}, {u"verdicts"_s, all}};
    }
    if (op == "status"_L1) {
        QJsonObject answer = m_session.status();
        answer.insert(u"ok"_s, true);
        answer.insert(u"op"_s, op);
        return answer;
    }
    return refusal(u"unknown op \"%1\" (fault, verdict, verdicts, status)"_s.arg(op));
}

} // namespace Sonde

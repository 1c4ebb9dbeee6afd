// SPDX-License-Identifier: MIT
#include "application/servers/proxiedsessions.h"

#include "proxy/proxycontrolserver.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

ProxiedSessions::ProxiedSessions(QObject *parent) : QObject(parent)
{
    m_batch.setSingleShot(true);
    connect(&m_batch, &QTimer::timeout, this, &ProxiedSessions::flush);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &ProxiedSessions::scan);
}

ProxiedSessions::~ProxiedSessions()
{
    qDeleteAll(m_proxies);
}

void ProxiedSessions::start(const QString &dir, bool recordsHistory)
{
    m_recordsHistory = recordsHistory;
    QString error;
    m_dir = dir.isEmpty() ? ProxyControlServer::announceDirectory(&error) : dir;
    if (m_dir.isEmpty()) {
        Q_EMIT status(tr("Proxied sessions are not shown: %1").arg(error));
        return;
    }
    m_watcher.addPath(m_dir);
    scan();
}

void ProxiedSessions::scan()
{
    const QStringList sockets =
        QDir(m_dir).entryList({u"proxy-*.sock"_s}, QDir::System | QDir::Files);
    for (const QString &s : sockets) {
        const QString path = QDir(m_dir).filePath(s);
        if (!m_proxies.contains(path))
            connectTo(path);
    }
}

void ProxiedSessions::connectTo(const QString &path)
{
    auto *p = new Proxy;
    p->path = path;
    p->socket = new QLocalSocket(this);
    m_proxies.insert(path, p);
    connect(p->socket, &QLocalSocket::connected, this, [this, p] {
        QJsonObject watch{{u"op"_s, u"watch"_s}};
        if (m_recordsHistory) {
            watch.insert(u"history"_s, u"window"_s);
            watch.insert(u"backlog"_s, false);
        }
        p->socket->write(QJsonDocument(watch).toJson(QJsonDocument::Compact) + '\n');
    });
    connect(p->socket, &QLocalSocket::readyRead, this, [this, p] { read(p); });
    // A socket file whose proxy died without removing it refuses: it is skipped, not shown.
    connect(p->socket, &QLocalSocket::errorOccurred, this, [this, p] { gone(p); });
    connect(p->socket, &QLocalSocket::disconnected, this, [this, p] { gone(p); });
    p->socket->connectToServer(path);
}

void ProxiedSessions::read(Proxy *p)
{
    p->buffer += p->socket->readAll();
    // The lines read, then what they took off the buffer in one go: a read of a thousand
    // lines is not a thousand moves of the rest (this is the GUI thread).
    qsizetype from = 0;
    for (qsizetype nl = p->buffer.indexOf('\n'); nl >= 0; nl = p->buffer.indexOf('\n', from)) {
        handle(p, QJsonDocument::fromJson(
                      QByteArrayView(p->buffer).sliced(from, nl - from).toByteArray())
                      .object());
        from = nl + 1;
    }
    p->buffer.remove(0, from);
    if (p->buffer.size() > MaxLineBytes) {
        Q_EMIT status(
            tr("A proxy sent a line over %1 MiB; it is no longer watched").arg(MaxLineBytes >> 20));
        p->socket->abort();
    }
}

void ProxiedSessions::handle(Proxy *p, const QJsonObject &line)
{
    const QString event = line.value(u"event"_s).toString();
    if (!p->helloSeen && line.value(u"op"_s) == "watch"_L1) {
        p->helloSeen = true;
        p->http = line.value(u"transport"_s) == "http"_L1;
        p->label = line.value(u"server"_s).toString();
        p->client = line.value(u"client"_s).toString();
        p->pid = line.value(u"pid"_s).toInteger();
        p->snapshot.generation = line.value(u"generation"_s).toInt(1);
        if (!p->client.isEmpty())
            appear(p);
        return;
    }
    if (event.isEmpty()) {
        // The answer to a fault this window sent: said in the status bar.
        if (line.value(u"op"_s) == "fault"_L1 || !line.value(u"ok"_s).toBool(true))
            Q_EMIT status(line.value(u"ok"_s).toBool()
                              ? tr("%1: fault %2 %3: %4")
                                    .arg(p->name, QString::number(line.value(u"id"_s).toInt()),
                                         line.value(u"kind"_s).toString(),
                                         line.value(u"summary"_s).toString())
                              : tr("%1: %2").arg(p->name, line.value(u"error"_s).toString()));
        return;
    }
    const int gen = line.value(u"gen"_s).toInt(1);
    const qint64 t = line.value(u"t_ms"_s).toInteger();
    if (event == "frame"_L1 && p->name.isEmpty()) {
        p->client = line.value(u"client"_s).toString();
        if (p->client.isEmpty())
            return; // nothing to name the row by yet: the initialize comes first
        appear(p);
    }
    if (p->name.isEmpty())
        return;
    if (gen != p->snapshot.generation) {
        p->snapshot.generation = gen;
        Q_EMIT sessionChanged(p->snapshot);
    }
    if (event == "frame"_L1) {
        TranscriptEvent e;
        e.timeMs = t;
        e.server = p->name;
        e.generation = gen;
        e.direction = line.value(u"from"_s) == "client"_L1 ? TranscriptEvent::Direction::Outgoing
                                                           : TranscriptEvent::Direction::Incoming;
        e.raw = line.value(u"frame"_s).toString().toUtf8();
        learnSession(p, e);
        add(std::move(e));
    } else if (event == "fault"_L1) {
        add(TranscriptEvent::lifecycle(
            t, p->name, gen,
            LifecycleDetails::Fault{.description = tr("proxy fault %1 %2: %3")
                                                       .arg(line.value(u"id"_s).toInt())
                                                       .arg(line.value(u"kind"_s).toString(),
                                                            line.value(u"detail"_s).toString())}));
    } else if (event == "verdict"_L1) {
        ProxiedVerdict v{line.value(u"id"_s).toInt(), line.value(u"kind"_s).toString(),
                         line.value(u"state"_s).toString(), line.value(u"summary"_s).toString(),
                         line.value(u"after_ms"_s).toInteger(-1)};
        p->verdicts.removeIf([&](const ProxiedVerdict &o) { return o.id == v.id; });
        p->verdicts.append(v);
        QJsonObject fields = line;
        fields.remove(u"event"_s);
        fields.remove(u"t_ms"_s);
        fields.remove(u"gen"_s);
        add(TranscriptEvent::lifecycle(t, p->name, gen,
                                       LifecycleDetails::Untyped{u"proxy-verdict"_s, fields}));
        Q_EMIT verdictsChanged(p->name);
    }
}

void ProxiedSessions::learnSession(Proxy *p, const TranscriptEvent &e)
{
    // What the Session tab shows of a server Sonde connects to, read off the handshake the
    // client made: the client's capabilities, then the server's answer.
    // Only the handshake's two frames are read again: every other frame is passed on as it
    // is (a scan for the word, not a parse, on the GUI thread).
    if (e.direction == TranscriptEvent::Direction::Outgoing ? !e.raw.contains("\"initialize\"")
                                                            : !e.raw.contains("\"serverInfo\""))
        return;
    const QJsonObject msg = QJsonDocument::fromJson(e.raw).object();
    if (e.direction == TranscriptEvent::Direction::Outgoing) {
        if (msg.value(u"method"_s) == "initialize"_L1)
            p->snapshot.clientCapabilities =
                msg.value(u"params"_s).toObject().value(u"capabilities"_s).toObject();
        return;
    }
    const QJsonObject result = msg.value(u"result"_s).toObject();
    if (!result.contains(u"serverInfo"_s) || !result.contains(u"protocolVersion"_s))
        return;
    p->snapshot.serverInfo = result.value(u"serverInfo"_s).toObject();
    p->snapshot.protocolVersion = result.value(u"protocolVersion"_s).toString();
    p->snapshot.serverCapabilities = result.value(u"capabilities"_s).toObject();
    p->snapshot.instructions = result.value(u"instructions"_s).toString();
    p->snapshot.startedMs = e.timeMs;
    Q_EMIT sessionChanged(p->snapshot);
}

void ProxiedSessions::appear(Proxy *p)
{
    // "client → server", unique among the rows this shows (two sessions of one client with
    // one server are two rows).
    const QString base = u"%1 → %2"_s.arg(p->client, p->label);
    QString name = base;
    for (int n = 2; byName(name); ++n)
        name = u"%1 (%2)"_s.arg(base).arg(n);
    p->name = name;
    ServerConfig c;
    c.name = name;
    c.route = p->http ? ServerConfig::Route::StreamableHttp : ServerConfig::Route::Stdio;
    p->snapshot.server = name;
    p->snapshot.route = c.route;
    p->snapshot.state = SessionSnapshot::State::Ready;
    p->snapshot.routeReason = tr("observed by sonde-cli proxy (pid %1), between %2 and its server")
                                  .arg(p->pid)
                                  .arg(p->client);
    Q_EMIT sessionAppeared(c);
    Q_EMIT sessionChanged(p->snapshot);
}

void ProxiedSessions::gone(Proxy *p)
{
    if (!m_proxies.contains(p->path))
        return;
    flush();
    m_proxies.remove(p->path);
    if (!p->name.isEmpty()) {
        p->snapshot.state = SessionSnapshot::State::Closed;
        p->snapshot.lastError = Error::transport(tr("its proxy (pid %1) ended").arg(p->pid));
        Q_EMIT sessionChanged(p->snapshot);
        Q_EMIT status(tr("%1: the proxy ended").arg(p->name));
    }
    p->socket->disconnect(this);
    p->socket->deleteLater();
    // The row stays, closed, with what it showed; a name freed is not reused.
    m_closed.append(*p);
    delete p;
}

int ProxiedSessions::pending() const
{
    return int(std::count_if(m_proxies.begin(), m_proxies.end(),
                             [](const Proxy *p) { return p->name.isEmpty(); }));
}

bool ProxiedSessions::holds(const QString &name) const
{
    if (byName(name))
        return true;
    for (const Proxy &p : m_closed)
        if (p.name == name)
            return true;
    return false;
}

std::optional<bool> ProxiedSessions::isHttp(const QString &name) const
{
    if (const Proxy *p = byName(name))
        return p->http;
    for (const Proxy &p : m_closed)
        if (p.name == name)
            return p.http;
    return std::nullopt;
}

QList<ProxiedVerdict> ProxiedSessions::verdicts(const QString &name) const
{
    if (const Proxy *p = byName(name))
        return p->verdicts;
    for (const Proxy &p : m_closed)
        if (p.name == name)
            return p.verdicts;
    return {};
}

bool ProxiedSessions::injectFault(const QString &name, const ProxyFault &fault)
{
    Proxy *p = byName(name);
    if (!p || p->socket->state() != QLocalSocket::ConnectedState)
        return false;
    p->socket->write(QJsonDocument(fault.toJson()).toJson(QJsonDocument::Compact) + '\n');
    return true;
}

ProxiedSessions::Proxy *ProxiedSessions::byName(const QString &name) const
{
    for (Proxy *p : m_proxies)
        if (!p->name.isEmpty() && p->name == name)
            return p;
    return nullptr;
}

void ProxiedSessions::add(TranscriptEvent event)
{
    m_pending.append(std::move(event));
    if (!m_batch.isActive())
        m_batch.start(BatchMs);
}

void ProxiedSessions::flush()
{
    m_batch.stop();
    if (!m_pending.isEmpty())
        Q_EMIT transcriptBatch(std::exchange(m_pending, {}));
}

} // namespace Sonde

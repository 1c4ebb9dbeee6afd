// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "proxy/proxyfault.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <optional>

class QLocalSocket;

namespace Sonde {

// One verdict on a proxied client's recovery, as the window shows it.
struct ProxiedVerdict
{
    int id = 0;
    QString kind;
    QString state; // armed, pending, pass, fail, note
    QString summary;
    qint64 afterMs = -1;
};

// The sessions `sonde-cli proxy` processes stand in the path of (docs/proxy.md), as the
// window shows them: every proxy announces itself in the user's runtime folder
// (ProxyControlServer::announceDirectory), and this finds each one there, however and
// whenever it started, and watches it through its socket. Each proxied session becomes a
// row (sessionAppeared: the client's name → the server, its transport), a snapshot
// (sessionChanged: ready, generation; closed when its proxy goes), transcript batches
// (frames, fault marks, verdicts: the same Transcript and Timeline views as a server Sonde
// connects to itself) and verdicts; injectFault() sends a fault into it. Nothing of it goes
// to the engine. Headless; the GUI thread; all socket I/O is asynchronous.
class ProxiedSessions : public QObject
{
    Q_OBJECT
public:
    explicit ProxiedSessions(QObject *parent = nullptr);
    ~ProxiedSessions() override;

    // Starts looking in `dir` (empty: the runtime folder). `recordsHistory`: the window
    // records what it is shown, so each proxy stops recording while the window watches
    // (and sends no events from before, which it recorded itself).
    void start(const QString &dir, bool recordsHistory);
    QString directory() const { return m_dir; }

    bool holds(const QString &name) const;
    // HTTP or stdio, for a proxied row; nothing for any other server.
    std::optional<bool> isHttp(const QString &name) const;
    QList<ProxiedVerdict> verdicts(const QString &name) const;
    // Sends the fault to the row's proxy; the answer comes back as a status line and the
    // verdict as verdictsChanged. False when the row is not a live proxied session.
    bool injectFault(const QString &name, const ProxyFault &fault);

    // Proxies connected to whose session has no row yet (no client seen so far).
    int pending() const;
    // How long a proxy that is there has to show its row (the window's --server waits so).
    static constexpr int AppearWithinMs = 3000;
    static constexpr qsizetype MaxLineBytes = 16 * 1024 * 1024;
    static constexpr int BatchMs = 50;

Q_SIGNALS:
    void sessionAppeared(const Sonde::ServerConfig &config);
    void sessionChanged(const Sonde::SessionSnapshot &snapshot);
    void transcriptBatch(const Sonde::TranscriptBatch &batch);
    void verdictsChanged(const QString &name);
    void status(const QString &message);

private:
    struct Proxy
    {
        QString path;
        QLocalSocket *socket = nullptr;
        QByteArray buffer;
        bool helloSeen = false;
        QString name; // the row's, once it appeared
        QString label;
        QString client;
        bool http = false;
        qint64 pid = 0;
        SessionSnapshot snapshot;
        QList<ProxiedVerdict> verdicts;
    };
    void scan();
    void connectTo(const QString &path);
    void read(Proxy *p);
    void handle(Proxy *p, const QJsonObject &line);
    void appear(Proxy *p);
    void learnSession(Proxy *p, const TranscriptEvent &frame);
    void gone(Proxy *p);
    void add(TranscriptEvent event);
    void flush();
    Proxy *byName(const QString &name) const;

    QString m_dir;
    bool m_recordsHistory = false;
    QFileSystemWatcher m_watcher;
    QHash<QString, Proxy *> m_proxies; // by socket path
    QList<Proxy> m_closed;             // proxies gone: their rows stay, closed
    TranscriptBatch m_pending;
    QTimer m_batch;
};

} // namespace Sonde

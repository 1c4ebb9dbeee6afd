// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QLocalServer>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace Sonde {

class ProxyEventFeed;
class ProxySession;

// The proxy's control socket (`sonde-cli proxy --control SOCK`): a local socket private to
// the user (its file mode 0600, in a directory the caller chose), taking one JSON line per
// request and answering each with one JSON line, in order:
//   {"op":"fault","kind":…}         arms a fault (ProxyFault::fromJson): its id and state
//   {"op":"verdict","id":N,"wait_ms":M}  the verdict on fault N, waiting up to M ms for it
//   {"op":"verdicts"}                every fault's verdict so far
//   {"op":"status"}                  the session: transport, client, counts, armed faults
//   {"op":"watch","backlog":B,"history":"window"}  who the proxy is, then every event
//                                    (ProxyEventFeed) as it happens, the kept ones first
//                                    unless backlog is false: the window's feed
// A malformed line gets {"ok":false,"error":…} and the connection goes on. `sonde-cli
// proxy-control SOCK` is its client. Every proxy also listens in the user's runtime folder
// (announceDirectory()), which the window watches to pick up proxies however they started.
// Thread: the proxy's.
class ProxyControlServer : public QObject
{
    Q_OBJECT
public:
    ProxyControlServer(ProxySession &session, QString serverLabel, QObject *parent = nullptr);
    ~ProxyControlServer() override;

    // Listens at `path` too (a stale socket file there is replaced); false with `error` set.
    bool listen(const QString &path, QString *error);
    // $XDG_RUNTIME_DIR/sonde (Qt's runtime location when unset), made private to the user
    // (0700) when missing; empty, with `error`, when it cannot be made so.
    static QString announceDirectory(QString *error);
    // This process's socket there: proxy-PID.sock.
    static QString announcePath(QString *error);

    static constexpr qsizetype MaxLineBytes = 1024 * 1024;
    static constexpr int MaxWaitMs = 600'000;

    // One request line's answer, or nothing when it waits for a verdict (answered later
    // through `reply`). Exposed for the tests of the ops themselves.
    QJsonObject handle(const QJsonObject &request, bool *waits);

Q_SIGNALS:
    // A watcher that records the session itself (the window) came, or the last one went:
    // the proxy's own recording pauses meanwhile.
    void historyTaken(bool taken);

private:
    friend class ControlConnection;
    void historyWatcher(int delta);
    int m_historyWatchers = 0;
    ProxySession &m_session;
    QString m_label;
    std::unique_ptr<ProxyEventFeed> m_feed;
    std::vector<std::unique_ptr<QLocalServer>> m_servers;
};

} // namespace Sonde

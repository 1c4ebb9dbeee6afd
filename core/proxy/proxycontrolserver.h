// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QLocalServer>
#include <QObject>
#include <QString>

namespace Sonde {

class ProxySession;

// The proxy's control socket (`sonde-cli proxy --control SOCK`): a local socket private to
// the user (its file mode 0600, in a directory the caller chose), taking one JSON line per
// request and answering each with one JSON line, in order:
//   {"op":"fault","kind":…}         arms a fault (ProxyFault::fromJson): its id and state
//   {"op":"verdict","id":N,"wait_ms":M}  the verdict on fault N, waiting up to M ms for it
//   {"op":"verdicts"}                every fault's verdict so far
//   {"op":"status"}                  the session: transport, client, counts, armed faults
// A malformed line gets {"ok":false,"error":…} and the connection goes on. `sonde-cli
// proxy-control SOCK` is its client. Thread: the proxy's.
class ProxyControlServer : public QObject
{
    Q_OBJECT
public:
    explicit ProxyControlServer(ProxySession &session, QObject *parent = nullptr);
    ~ProxyControlServer() override;

    // Listens at `path` (a stale socket file there is replaced); false with `error` set.
    bool listen(const QString &path, QString *error);
    QString path() const { return m_server.fullServerName(); }

    static constexpr qsizetype MaxLineBytes = 1024 * 1024;
    static constexpr int MaxWaitMs = 600'000;

    // One request line's answer, or nothing when it waits for a verdict (answered later
    // through `reply`). Exposed for the tests of the ops themselves.
    QJsonObject handle(const QJsonObject &request, bool *waits);

private:
    void accept();

    ProxySession &m_session;
    QLocalServer m_server;
};

} // namespace Sonde

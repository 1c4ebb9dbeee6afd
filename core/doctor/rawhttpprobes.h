// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "doctor/doctorfinding.h"

#include <QByteArray>
#include <QList>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>

class QNetworkReply;
class QTimer;

namespace Sonde {

// The doctor's HTTP probes that the engine would never send: they break a rule on purpose
// (an unknown session id, a foreign Origin, an unsupported MCP-Protocol-Version, a header
// that contradicts the body) and read the server's answer at the HTTP level, on a session of
// their own (opened with initialize, closed with DELETE), so the user's session is never
// touched. Each request has its own time bound; an answer that never comes is said, and the
// next probe runs. Only probes that are safe to repeat are sent: initialize, ping,
// notifications/initialized, server/discover, tools/list; never a tools/call. Thread: the
// caller's (a QNetworkAccessManager of its own). Owned by the DoctorRun.
class RawHttpProbes : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        ServerConfig server;
        bool rev20260728 = false;
        int timeoutMs = 5000;
        // GET streams whose headers come with the first event (the SDK servers) are not
        // waited for longer than this: no answer is not a finding.
        int getStreamWaitMs = 1500;
        QStringList only; // the check ids asked for; empty: every one
        // A resource the server lists: read with an Mcp-Name naming another (2026-07-28),
        // which must be refused. Empty: that probe is not sent.
        QString resourceUri;
    };

    explicit RawHttpProbes(Options options, QObject *parent = nullptr);
    ~RawHttpProbes() override;

    void start();
    // The checks that ran, and those skipped with why (e.g. a server that needs a token).
    QStringList ran() const { return m_ran; }
    QMap<QString, QString> skipped() const { return m_skipped; }
    // The session ids the probes were given: the report masks them.
    QStringList sessionIds() const { return m_sessionIds; }

Q_SIGNALS:
    void found(const Sonde::DoctorFinding &finding);
    void finished();

private:
    struct Answer
    {
        int status = 0; // 0: no answer (network error or timeout)
        QString error;
        QByteArray contentType;
        QByteArray sessionId;
        QByteArray body;
        QJsonObject message; // the JSON-RPC message in the body (plain JSON or an SSE event)
        QByteArray requestText;
        QByteArray responseText;
    };
    using Then = std::function<void(const Answer &)>;
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    void send(const QByteArray &verb, const QJsonObject &body, const Headers &headers, Then then,
              bool headersOnly = false);
    QJsonObject request(const QString &method, const QJsonObject &params = {}) const;
    QJsonObject initializeRequest(const QString &version) const;
    QJsonObject modernParams(const QString &version) const;
    Headers modernHeaders(const QString &method, const QString &version) const;
    bool wanted(const QString &checkId) const;
    void note(const QString &checkId)
    {
        if (!m_ran.contains(checkId))
            m_ran << checkId;
    }
    void skip(const QString &checkId, const QString &why);
    void fail(const QString &checkId, const QString &message, const Answer &answer);
    bool isLoopback() const;
    // 401 or 403 to the first probe: every HTTP probe is skipped, saying why, and the probes
    // end. False for any other answer.
    bool refusedForAuthorization(const Answer &answer);

    // A ping with `headers` must get `status`; `what` (with %1 for what came) says otherwise.
    void expectStatus(const QString &checkId, const Headers &headers, int status,
                      const QString &what, void (RawHttpProbes::*then)());
    // The sequences, each calling the next when done.
    void openSession();
    void notificationStatus();
    void protocolVersionHeader();
    void unknownSession();
    void getStream();
    void deleteSession();
    void foreignOrigin();
    void versionNegotiation();
    void discover2026();
    void checkContentType(const Answer &answer, const QString &what);
    void unsupportedVersion2026();
    void headerMismatch2026();
    void get2026();
    void done();

    Options m_options;
    QNetworkAccessManager m_nam;
    QList<QPointer<QNetworkReply>> m_replies;
    QByteArray m_session;
    bool m_only2026 = false; // server/discover offered 2026-07-28 alone
    QString m_version;
    mutable int m_nextId = 1; // the probes' own JSON-RPC ids
    QStringList m_ran;
    QMap<QString, QString> m_skipped;
    QStringList m_sessionIds;
    bool m_finished = false;
};

} // namespace Sonde

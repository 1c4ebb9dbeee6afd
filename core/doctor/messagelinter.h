// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"
#include "transcript/transcriptevent.h"

#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>

namespace Sonde {

// The passive half of the doctor: reads a session's transcript event by event, as it grows,
// and says each rule the server's messages break (the catalog's passive checks). It sends
// nothing, so it runs on every session Sonde sees: a doctor run's, the window's, a proxied
// client's. Each (check, subject) is said once: a server that omits "jsonrpc" from every
// answer gets one finding, not a thousand. What a session declared is forgotten when a new
// one begins (an initialize: a connection or a reconnect; the engine's generation changes at
// "ready", after the handshake, so it is no boundary). Memory is bounded: at most MaxPending
// requests are remembered (the oldest forgotten first), each frame kept for evidence cut at
// DoctorEvidenceLimit. Pure logic, any thread; one instance per session.
class MessageLinter
{
public:
    static constexpr int MaxPending = 4096;
    static constexpr int MaxWalks = 16;

    // `stdio`: the session's frames are stdout lines (a line that is not JSON-RPC breaks
    // stdio.non-jsonrpc-stdout; over HTTP it is an invalid envelope).
    explicit MessageLinter(bool stdio = false) : m_stdio(stdio) {}
    void setStdio(bool stdio) { m_stdio = stdio; }

    // One event, at `index` in the session's transcript. Returns what it newly breaks.
    QList<DoctorFinding> feed(const TranscriptEvent &event, qint64 index);

    // What the session has said so far (the active run gates its probes on these).
    QJsonObject serverCapabilities() const { return m_serverCaps; }
    bool rev20260728() const { return m_rev20260728; }
    // Checks with something to look at so far (a tools/call answer for a tool with an
    // outputSchema, a progress notification...): a report calls them ran, the others idle.
    const QSet<QString> &exercised() const { return m_exercised; }

private:
    struct Pending
    {
        QString method;
        QByteArray frame; // cut at DoctorEvidenceLimit
        QString tool;     // tools/call
        QString cursor;   // list requests
        QString progressToken;
        bool rev20260728 = false; // sent the 2026-07-28 way (its _meta)
        int walk = -1;            // list requests: the walk this page belongs to
        qint64 order = 0;
    };

    void reset();
    void onOutgoing(const TranscriptEvent &event);
    void onIncoming(const TranscriptEvent &event, qint64 index);
    void onMessage(const QJsonObject &message, const TranscriptEvent &event, qint64 index);
    void onResponse(const QJsonObject &message, const Pending &request,
                    const TranscriptEvent &event, qint64 index);
    void onServerRequest(const QJsonObject &message, const TranscriptEvent &event, qint64 index);
    void onNotification(const QJsonObject &message, const TranscriptEvent &event, qint64 index);
    // A notification carrying a subscription id: the listen stream's rules.
    void onListenNotification(const QString &method, const QJsonObject &params,
                              const TranscriptEvent &event, qint64 index);
    void checkInitializeResult(const QJsonObject &result, const Pending &request,
                               const TranscriptEvent &event, qint64 index);
    void checkDiscoverResult(const QJsonObject &result, const Pending &request,
                             const TranscriptEvent &event, qint64 index);
    void checkToolsPage(const QJsonObject &result, const Pending &request,
                        const TranscriptEvent &event, qint64 index);
    void checkToolResult(const QJsonObject &result, const Pending &request,
                         const TranscriptEvent &event, qint64 index);
    void checkPage(const QJsonObject &result, const Pending &request, const TranscriptEvent &event,
                   qint64 index);
    void check2026Result(const QJsonObject &result, const Pending &request,
                         const TranscriptEvent &event, qint64 index);
    // Records a finding unless (check, subject) was said already.
    void report(const QString &checkId, const QString &subject, const QString &message,
                const QByteArray &request, const TranscriptEvent &event, qint64 index);
    void remember(const QString &key, Pending pending);

    bool m_stdio = false;
    QList<DoctorFinding> m_new;
    QSet<QString> m_said;
    QSet<QString> m_exercised;
    QHash<QString, Pending> m_pending; // by the id's exact key (type and value)
    qint64 m_order = 0;
    QSet<QString> m_cancelled;         // requests the client cancelled: a late answer is fine
    QSet<QString> m_progressTokens;    // every token a request carried in this generation
    QHash<QString, double> m_progress; // the last progress per token
    QJsonObject m_clientCaps;
    QJsonObject m_serverCaps;
    bool m_capsKnown = false;
    bool m_initializeSent = false;
    bool m_initializedSent = false;
    bool m_rev20260728 = false;
    QString m_requestedVersion;
    QHash<QString, QJsonObject> m_outputSchemas; // tool -> outputSchema, from tools/list
    // A walk of a list: its first page (no cursor) and the pages its cursors lead to. Two
    // walks may interleave (a refresh after list_changed beside the client's own), so each
    // keeps its own names and cursors.
    struct Walk
    {
        QSet<QString> names; // tools/list
        QSet<QString> cursors;
    };
    int m_nextWalk = 0;
    QHash<int, Walk> m_walks; // the latest MaxWalks walks
    // 2026-07-28 listen streams by the id of their subscriptions/listen request.
    struct Listen
    {
        QJsonObject filter; // the request's notifications filter
        QByteArray frame;   // the request, for evidence
        bool acknowledged = false;
    };
    QHash<QString, Listen> m_listens;
    QHash<QString, int> m_walkOfCursor; // a cursor -> the walk that gave it
};

} // namespace Sonde

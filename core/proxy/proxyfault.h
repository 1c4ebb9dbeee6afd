// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// A fault injected into a real client's live session by the proxy (`sonde-cli proxy`,
// issue 31), through the control socket's `{"op":"fault","kind":…}` lines or the window.
// Unlike Fault (what Sonde does to its own session), these act on the wire between a client
// Sonde does not control and its server, so the client's own recovery is what gets seen and
// judged (ClientJudge). A value; any thread.
struct ProxyFault
{
    enum class Kind
    {
        ExpireSession,   // HTTP: the session id gets 404 from now on; upstream gets DELETE
        DropConnection,  // HTTP: the request runs, the client's connection closes unanswered
        CutStream,       // HTTP: the next SSE response ends in the middle of an event
        Status,          // HTTP: the next request is answered `status` here, never forwarded
        LoseResume,      // HTTP: the next GET with Last-Event-ID goes up without it (no replay)
        KillServer,      // stdio: SIGKILL the server now
        DropResponse,    // stdio: the next response is not relayed
        CorruptResponse, // stdio: the next response is relayed cut in half (invalid JSON)
        Delay,           // both: the next `count` answers wait `ms`
        Notify,          // both: send the client a server notification now
        Clear            // both: disarm every fault still waiting
    };

    Kind kind = Kind::Clear;
    int count = 1;        // how many messages it acts on (the one-shot default: 1)
    int ms = 0;           // Delay
    int status = 0;       // Status
    int retryAfterS = -1; // Status: a Retry-After header when >= 0
    QString method;       // Notify
    QJsonObject params;   // Notify

    struct Info
    {
        Kind kind;
        bool http;
        bool stdio;
        QString name;
        QString description;
    };
    // Every kind, in the order help texts and menus show them.
    static const QList<Info> &all();
    static const Info &info(Kind kind);
    QString name() const { return info(kind).name; }
    // The names of the kinds a transport takes, for an error message.
    static QString nameList(bool http);

    // A control line's fault (`kind` and its fields: count, ms, status, retry_after_s,
    // method, params), for the proxy's transport; nothing, with `error` set to one line
    // saying why, when it names no kind this transport takes or a field is out of range.
    static std::optional<ProxyFault> fromJson(const QJsonObject &line, bool http, QString *error);
    // The control line that arms this fault (what fromJson reads back).
    QJsonObject toJson() const;
};

} // namespace Sonde

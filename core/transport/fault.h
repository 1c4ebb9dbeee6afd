// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sonde {

// A fault the user injects on purpose (docs/recovery.md; the fault panel and `{"op":"fault"}`).
// FaultInjectingTransport applies every kind, on the frames and signals that pass through it
// and, for what only the route can do, through ProcessControl or HttpControl.
struct Fault
{
    enum class Kind
    {
        ExpireSession,       // HTTP: DELETE the session on the server, keep using its id
        CorruptSessionId,    // HTTP: replace the stored session id with a random one
        ExpireAfterDispatch, // send the next request, then replace its answer with an expiry
        KillProcess,         // stdio: SIGKILL the child now
        KillDuringNextCall,  // stdio: SIGKILL right after the next request is written
        DropConnection,      // HTTP: abort the open replies and streams
        Delay,               // hold each answer `ms` until cleared
        HttpStatus,          // HTTP: answer the next request with `status`, locally
        Clear,               // remove every standing fault
        // 2026-07-28 (answered or cut here, so they work against any server)
        DropStream,         // the next request runs, and its response stream breaks unanswered
        UnsupportedVersion, // the next request is answered -32022 UnsupportedProtocolVersion
        InputRequiredTwice, // the next call is answered input_required, twice, then goes out
        DropListen,         // the subscriptions/listen stream breaks
    };

    Kind kind = Kind::Clear;
    int ms = 0;
    int status = 0;

    // One kind as everything that lists faults says it: its name (`exec`, the transcript),
    // its label (the Health tab, the Faults menu) and what it does (their tooltips).
    // Where a kind does what it says: on which route, in which era, with what open.
    struct Needs
    {
        enum class Route
        {
            Any,
            Http,           // any HTTP route
            StreamableHttp, // the Streamable HTTP route, where sessions live in a header
            Stdio
        };
        enum class Era
        {
            Any,
            Initialize, // sessions: the initialize era
            Rev20260728 // sessionless
        };
        Route route = Route::Any;
        Era era = Era::Any;
        bool listening = false; // a 2026-07-28 subscriptions/listen stream is open
    };
    struct Info
    {
        Kind kind;
        Needs needs;
        QString name;
        QString label;
        QString description;
    };
    // Every kind, in the order the Health tab and the Faults menu show them (Clear last): the
    // one list every list of faults is made from.
    static const QList<Info> &all();
    static const Info &info(Kind kind);
    // "expire-session, corrupt-session-id, …, clear": the names, for an error or a help text.
    static QString nameList();

    // What a connection is, as far as faults care.
    struct Target
    {
        bool http = false;           // any HTTP route, not stdio
        bool streamableHttp = false; // the Streamable HTTP route (sessions live in a header)
        bool sessions = true;        // the initialize era; 2026-07-28 has none
        bool listening = false;      // a 2026-07-28 subscriptions/listen stream is open
    };
    // Whether injecting `kind` into such a connection does what it says.
    static bool appliesTo(Kind kind, const Target &target);

    static std::optional<Kind> parseKind(const QString &name);
    static QString kindName(Kind kind);
    QString describe() const;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::Fault)

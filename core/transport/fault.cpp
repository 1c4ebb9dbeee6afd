// SPDX-License-Identifier: MIT
#include "transport/fault.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

const QList<Fault::Info> &Fault::all()
{
    using Route = Needs::Route;
    using Era = Needs::Era;
    // Where each kind applies, by name.
    const Needs anywhere;
    const Needs stdio{Route::Stdio};
    const Needs http{Route::Http};
    const Needs sessionHeader{Route::StreamableHttp, Era::Initialize}; // Mcp-Session-Id
    const Needs sessions{Route::Any, Era::Initialize};
    const Needs rev20260728{Route::Any, Era::Rev20260728};
    const Needs rev20260728Http{Route::Http, Era::Rev20260728};
    const Needs listening{Route::Any, Era::Rev20260728, true};
    static const QList<Info> table = {
        {Kind::ExpireSession, sessionHeader, u"expire-session"_s, u"Expire session"_s,
         u"HTTP: end the session on the server (DELETE) while Sonde keeps its id"_s},
        {Kind::CorruptSessionId, sessionHeader, u"corrupt-session-id"_s, u"Corrupt session id"_s,
         u"HTTP: replace the stored session id with a random one"_s},
        {Kind::ExpireAfterDispatch, sessions, u"expire-after-dispatch"_s,
         u"Expire after dispatch"_s,
         u"Send the next request, then replace its answer with an expired session"_s},
        {Kind::KillProcess, stdio, u"kill-process"_s, u"Kill process"_s,
         u"stdio: SIGKILL the server now"_s},
        {Kind::KillDuringNextCall, stdio, u"kill-during-next-call"_s, u"Kill during next call"_s,
         u"stdio: SIGKILL right after the next request is written"_s},
        {Kind::DropConnection, http, u"drop-connection"_s, u"Drop connection"_s,
         u"HTTP: abort the open replies and streams"_s},
        {Kind::Delay, anywhere, u"delay"_s, u"Delay answers"_s,
         u"Hold each answer the given time until cleared"_s},
        {Kind::HttpStatus, http, u"http-status"_s, u"Answer HTTP status"_s,
         u"HTTP: answer the next request with the given status, locally"_s},
        {Kind::DropStream, rev20260728Http, u"drop-stream"_s, u"Drop stream"_s,
         u"2026-07-28, HTTP: the next request runs on the server and its response stream "
         u"breaks before the answer"_s},
        {Kind::UnsupportedVersion, rev20260728, u"unsupported-version"_s, u"Refuse version"_s,
         u"2026-07-28: answer the next request -32022 UnsupportedProtocolVersion, locally"_s},
        {Kind::InputRequiredTwice, rev20260728, u"input-required-twice"_s, u"Ask for input twice"_s,
         u"2026-07-28: answer the next call input_required twice, locally, before it goes "
         u"out"_s},
        {Kind::DropListen, listening, u"drop-listen"_s, u"Drop listen stream"_s,
         u"2026-07-28: break the subscriptions/listen stream (Sonde opens it again)"_s},
        {Kind::Clear, anywhere, u"clear"_s, u"Clear faults"_s, u"Remove every standing fault"_s},
    };
    return table;
}

const Fault::Info &Fault::info(Kind kind)
{
    for (const Info &i : all())
        if (i.kind == kind)
            return i;
    return all().constLast(); // every kind is in the table (tst_fault checks it)
}

QString Fault::nameList()
{
    QStringList names;
    for (const Info &i : all())
        names << i.name;
    return names.join(u", "_s);
}

bool Fault::appliesTo(Kind kind, const Target &t)
{
    const Needs &n = info(kind).needs;
    const bool route = n.route == Needs::Route::Any || (n.route == Needs::Route::Http && t.http) ||
                       (n.route == Needs::Route::StreamableHttp && t.streamableHttp) ||
                       (n.route == Needs::Route::Stdio && !t.http);
    const bool era = n.era == Needs::Era::Any || (n.era == Needs::Era::Initialize) == t.sessions;
    return route && era && (!n.listening || t.listening);
}

std::optional<Fault::Kind> Fault::parseKind(const QString &name)
{
    for (const Info &i : all())
        if (i.name == name)
            return i.kind;
    return std::nullopt;
}

QString Fault::kindName(Kind kind)
{
    return info(kind).name;
}

QString Fault::describe() const
{
    QString d = kindName(kind);
    if (kind == Kind::Delay)
        d += u" %1 ms"_s.arg(ms);
    if (kind == Kind::HttpStatus)
        d += u" %1"_s.arg(status);
    return d;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transport/fault.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

const QList<Fault::Info> &Fault::all()
{
    static const QList<Info> table = {
        {Kind::ExpireSession, u"expire-session"_s, u"Expire session"_s,
         u"HTTP: end the session on the server (DELETE) while Sonde keeps its id"_s},
        {Kind::CorruptSessionId, u"corrupt-session-id"_s, u"Corrupt session id"_s,
         u"HTTP: replace the stored session id with a random one"_s},
        {Kind::ExpireAfterDispatch, u"expire-after-dispatch"_s, u"Expire after dispatch"_s,
         u"Send the next request, then replace its answer with an expired session"_s},
        {Kind::KillProcess, u"kill-process"_s, u"Kill process"_s,
         u"stdio: SIGKILL the server now"_s},
        {Kind::KillDuringNextCall, u"kill-during-next-call"_s, u"Kill during next call"_s,
         u"stdio: SIGKILL right after the next request is written"_s},
        {Kind::DropConnection, u"drop-connection"_s, u"Drop connection"_s,
         u"HTTP: abort the open replies and streams"_s},
        {Kind::Delay, u"delay"_s, u"Delay answers"_s,
         u"Hold each answer the given time until cleared"_s},
        {Kind::HttpStatus, u"http-status"_s, u"Answer HTTP status"_s,
         u"HTTP: answer the next request with the given status, locally"_s},
        {Kind::DropStream, u"drop-stream"_s, u"Drop stream"_s,
         u"2026-07-28, HTTP: the next request runs on the server and its response stream "
         u"breaks before the answer"_s},
        {Kind::UnsupportedVersion, u"unsupported-version"_s, u"Refuse version"_s,
         u"2026-07-28: answer the next request -32022 UnsupportedProtocolVersion, locally"_s},
        {Kind::InputRequiredTwice, u"input-required-twice"_s, u"Ask for input twice"_s,
         u"2026-07-28: answer the next call input_required twice, locally, before it goes "
         u"out"_s},
        {Kind::DropListen, u"drop-listen"_s, u"Drop listen stream"_s,
         u"2026-07-28: break the subscriptions/listen stream (Sonde opens it again)"_s},
        {Kind::Clear, u"clear"_s, u"Clear faults"_s, u"Remove every standing fault"_s},
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
    switch (kind) {
    case Kind::ExpireSession:
    case Kind::CorruptSessionId:
        return t.sessions && t.streamableHttp;
    case Kind::ExpireAfterDispatch:
        return t.sessions;
    case Kind::DropConnection:
    case Kind::HttpStatus:
        return t.http;
    case Kind::KillProcess:
    case Kind::KillDuringNextCall:
        return !t.http;
    case Kind::DropStream:
        return !t.sessions && t.http;
    case Kind::UnsupportedVersion:
    case Kind::InputRequiredTwice:
        return !t.sessions;
    case Kind::DropListen:
        return !t.sessions && t.listening;
    case Kind::Delay:
    case Kind::Clear:
        return true;
    }
    return true;
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

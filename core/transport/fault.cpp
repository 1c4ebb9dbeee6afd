// SPDX-License-Identifier: MIT
#include "transport/fault.h"

#include <QList>
#include <QPair>

using namespace Qt::StringLiterals;

namespace Sonde {

static const QList<QPair<Fault::Kind, QString>> &names()
{
    static const QList<QPair<Fault::Kind, QString>> table = {
        {Fault::Kind::ExpireSession, u"expire-session"_s},
        {Fault::Kind::CorruptSessionId, u"corrupt-session-id"_s},
        {Fault::Kind::ExpireAfterDispatch, u"expire-after-dispatch"_s},
        {Fault::Kind::KillProcess, u"kill-process"_s},
        {Fault::Kind::KillDuringNextCall, u"kill-during-next-call"_s},
        {Fault::Kind::DropConnection, u"drop-connection"_s},
        {Fault::Kind::Delay, u"delay"_s},
        {Fault::Kind::HttpStatus, u"http-status"_s},
        {Fault::Kind::Clear, u"clear"_s},
        {Fault::Kind::DropStream, u"drop-stream"_s},
        {Fault::Kind::UnsupportedVersion, u"unsupported-version"_s},
        {Fault::Kind::InputRequiredTwice, u"input-required-twice"_s},
        {Fault::Kind::DropListen, u"drop-listen"_s},
    };
    return table;
}

std::optional<Fault::Kind> Fault::parseKind(const QString &name)
{
    for (const auto &[kind, n] : names())
        if (n == name)
            return kind;
    return std::nullopt;
}

QString Fault::kindName(Kind kind)
{
    for (const auto &[k, n] : names())
        if (k == kind)
            return n;
    return {};
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

// SPDX-License-Identifier: MIT
#include "proxy/proxyfault.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

const QList<ProxyFault::Info> &ProxyFault::all()
{
    using K = Kind;
    static const QList<Info> kinds = {
        {K::ExpireSession, true, false, u"expire-session"_s,
         u"The client's session id gets 404 from now on, and the server's session is ended "
         "with DELETE: a client that initializes again gets a real new session."_s},
        {K::DropConnection, true, false, u"drop-connection"_s,
         u"The next request reaches the server; the client's connection closes before its "
         "answer (the write ran, the client lost the answer)."_s},
        {K::CutStream, true, false, u"cut-stream"_s,
         u"The next SSE response ends in the middle of an event."_s},
        {K::Status, true, false, u"status"_s,
         u"The next request is answered with `status` by the proxy and never reaches the "
         "server (429 and 503 with Retry-After when `retry_after_s` is given)."_s},
        {K::LoseResume, true, false, u"lose-resume"_s,
         u"The next GET with Last-Event-ID reaches the server without it: no replay."_s},
        {K::KillServer, false, true, u"kill-server"_s,
         u"The server process is killed now (SIGKILL): the client sees its server die."_s},
        {K::DropResponse, false, true, u"drop-response"_s,
         u"The next response the server writes is not relayed to the client."_s},
        {K::CorruptResponse, false, true, u"corrupt-response"_s,
         u"The next response is relayed cut in half: a line that is not JSON."_s},
        {K::Delay, true, true, u"delay"_s, u"The next `count` answers wait `ms` each."_s},
        {K::Notify, true, true, u"notify"_s,
         u"The client gets a server notification now (`method`, `params`; on HTTP through "
         "its open GET stream)."_s},
        {K::Clear, true, true, u"clear"_s, u"Every fault still waiting is disarmed."_s},
    };
    return kinds;
}

const ProxyFault::Info &ProxyFault::info(Kind kind)
{
    return all().at(qsizetype(kind));
}

QString ProxyFault::nameList(bool http)
{
    QStringList names;
    for (const Info &i : all()) {
        if (http ? i.http : i.stdio)
            names.append(i.name);
    }
    return names.join(u", "_s);
}

std::optional<ProxyFault> ProxyFault::fromJson(const QJsonObject &line, bool http, QString *error)
{
    const QString name = line.value(u"kind"_s).toString();
    const Info *found = nullptr;
    for (const Info &i : all()) {
        if (i.name == name)
            found = &i;
    }
    const QString transport = http ? u"HTTP"_s : u"stdio"_s;
    if (!found || !(http ? found->http : found->stdio)) {
        *error = found ? u"fault \"%1\" does not apply to a %2 proxy (%3)"_s.arg(name, transport,
                                                                                 nameList(http))
                       : u"unknown fault kind \"%1\" (%2)"_s.arg(name, nameList(http));
        return std::nullopt;
    }
    ProxyFault f;
    f.kind = found->kind;
    // Integers with a range each: a negative delay or a status of 20 is a typo, said so.
    auto integer = [&](const QString &key, int fallback, int low, int high, int *out) {
        const QJsonValue v = line.value(key);
        if (v.isUndefined()) {
            *out = fallback;
            return true;
        }
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d != double(qint64(d)) || d < low || d > high) {
            *error = u"fault %1: \"%2\" must be a whole number from %3 to %4"_s.arg(name, key)
                         .arg(low)
                         .arg(high);
            return false;
        }
        *out = int(d);
        return true;
    };
    if (!integer(u"count"_s, 1, 1, 1'000'000, &f.count))
        return std::nullopt;
    if (f.kind == Kind::Delay && !integer(u"ms"_s, 1000, 0, 3'600'000, &f.ms))
        return std::nullopt;
    if (f.kind == Kind::Status) {
        if (!integer(u"status"_s, 503, 400, 599, &f.status))
            return std::nullopt;
        if (!integer(u"retry_after_s"_s, f.status == 429 ? 1 : -1, -1, 86'400, &f.retryAfterS))
            return std::nullopt;
    }
    if (f.kind == Kind::Notify) {
        f.method = line.value(u"method"_s).toString(u"notifications/tools/list_changed"_s);
        if (!f.method.startsWith(u"notifications/"_s)) {
            *error = u"fault notify: \"method\" must name a notification (notifications/…)"_s;
            return std::nullopt;
        }
        f.params = line.value(u"params"_s).toObject();
    }
    return f;
}

QJsonObject ProxyFault::toJson() const
{
    QJsonObject o{{u"op"_s, u"fault"_s}, {u"kind"_s, name()}};
    if (count != 1)
        o.insert(u"count"_s, count);
    if (kind == Kind::Delay)
        o.insert(u"ms"_s, ms);
    if (kind == Kind::Status) {
        o.insert(u"status"_s, status);
        if (retryAfterS >= 0)
            o.insert(u"retry_after_s"_s, retryAfterS);
    }
    if (kind == Kind::Notify) {
        o.insert(u"method"_s, method);
        if (!params.isEmpty())
            o.insert(u"params"_s, params);
    }
    return o;
}

} // namespace Sonde

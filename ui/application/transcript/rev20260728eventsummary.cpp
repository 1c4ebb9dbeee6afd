// SPDX-License-Identifier: MIT
#include "application/transcript/rev20260728eventsummary.h"
#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString listenName(const QJsonObject &details)
{
    const QString id = JsonRpcMessage::idText(details.value("id"_L1));
    return id.isEmpty() ? u"listen"_s : u"listen #"_s + id;
}

QString joined(const QStringList &items)
{
    return items.isEmpty() ? Rev20260728EventSummary::tr("nothing") : items.join(u", "_s);
}

} // namespace

QStringList Rev20260728EventSummary::filterItems(const QJsonObject &filter)
{
    static const std::pair<const char *, const char *> flags[] = {
        {"toolsListChanged",
         QT_TRANSLATE_NOOP("Sonde::Rev20260728EventSummary", "tool list changes")},
        {"promptsListChanged",
         QT_TRANSLATE_NOOP("Sonde::Rev20260728EventSummary", "prompt list changes")},
        {"resourcesListChanged",
         QT_TRANSLATE_NOOP("Sonde::Rev20260728EventSummary", "resource list changes")}};
    QStringList out;
    for (const auto &[key, words] : flags)
        if (filter.value(QLatin1StringView(key)).toBool())
            out.append(tr(words));
    for (const QJsonValue &uri : filter.value("resourceSubscriptions"_L1).toArray())
        out.append(tr("updates of %1").arg(uri.toString()));
    return out;
}

QStringList Rev20260728EventSummary::notGranted(const QJsonObject &requested,
                                                const QJsonObject &granted)
{
    const QStringList allowed = filterItems(granted);
    QStringList out;
    for (const QString &item : filterItems(requested))
        if (!allowed.contains(item))
            out.append(item);
    return out;
}

std::optional<Rev20260728EventSummary> Rev20260728EventSummary::of(const TranscriptEvent &e)
{
    const QJsonObject &d = e.details;
    Rev20260728EventSummary s;
    // A transcript read back from a file may carry only the name.
    switch (e.kind != EventKind::Other ? e.kind : eventKindFromName(e.event)) {
    case EventKind::EraChosen: {
        const QString era = d.value("era"_L1).toString();
        const QString version = d.value("protocol_version"_L1).toString();
        QStringList supported;
        for (const QJsonValue &v : d.value("supported"_L1).toArray())
            supported.append(v.toString());
        s.summary = tr("era %1").arg(era.isEmpty() ? tr("(unknown)") : era);
        if (!version.isEmpty())
            s.summary += tr(", protocol %1").arg(version);
        const QString reason = d.value("reason"_L1).toString();
        if (!reason.isEmpty())
            s.summary += u": "_s + reason;
        if (!supported.isEmpty())
            s.summary += tr(" (the server supports %1)").arg(supported.join(u", "_s));
        // Found beside the probe that decided it.
        if (reason.contains("server/discover"_L1))
            s.method = u"server/discover"_s;
        return s;
    }
    case EventKind::InputRequired: {
        const QJsonObject requests = d.value("requests"_L1).toObject();
        QStringList asked;
        for (auto it = requests.begin(); it != requests.end(); ++it)
            asked.append(it.value().toString() + u" ("_s + it.key() + u')');
        s.method = d.value("method"_L1).toString();
        s.id = JsonRpcMessage::idText(d.value("id"_L1));
        const QString name = d.value("name"_L1).toString();
        const QString call = s.method + (name.isEmpty() ? QString() : u' ' + name) +
                             (s.id.isEmpty() ? QString() : u" #"_s + s.id);
        s.summary = tr("input required: %1 asked for %2, round %3")
                        .arg(call, joined(asked))
                        .arg(d.value("round"_L1).toInt(1));
        const QString next = JsonRpcMessage::idText(d.value("next_id"_L1));
        if (!next.isEmpty())
            s.summary += tr("; answered as #%1").arg(next);
        return s;
    }
    case EventKind::ListenAcknowledged: {
        const QJsonObject requested = d.value("requested"_L1).toObject();
        const QJsonObject granted = d.value("granted"_L1).toObject();
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(d.value("id"_L1));
        s.summary =
            tr("%1 acknowledged: granted %2").arg(listenName(d), joined(filterItems(granted)));
        if (const QStringList refused = notGranted(requested, granted); !refused.isEmpty())
            s.summary += tr("; asked for but not granted: %1").arg(refused.join(u", "_s));
        return s;
    }
    case EventKind::ListenEnded:
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(d.value("id"_L1));
        s.summary = d.value("graceful"_L1).toBool()
                        ? tr("%1 ended: the server completed it").arg(listenName(d))
                        : tr("%1 ended").arg(listenName(d));
        return s;
    case EventKind::ListenDropped: {
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(d.value("id"_L1));
        s.isError = true;
        const QString reason = d.value("reason"_L1).toString();
        s.summary =
            tr("%1 dropped").arg(listenName(d)) + (reason.isEmpty() ? QString() : u": "_s + reason);
        const qint64 retry = d.value("retry_in_ms"_L1).toInteger(-1);
        if (retry >= 0)
            s.summary += retry % 1000 == 0 ? tr("; listening again in %1 s").arg(retry / 1000)
                                           : tr("; listening again in %1 ms").arg(retry);
        return s;
    }
    case EventKind::TaskStatus: {
        // A call the server turned into a task: filed with the call that started it.
        s.method = u"tools/call"_s;
        s.id = JsonRpcMessage::idText(d.value("id"_L1));
        const QString status = d.value("status"_L1).toString();
        const QString message = d.value("message"_L1).toString();
        s.summary = tr("task %1 %2").arg(d.value("task_id"_L1).toString(), status);
        if (!message.isEmpty())
            s.summary += u": "_s + message;
        if (!s.id.isEmpty())
            s.summary += tr(" (call #%1)").arg(s.id);
        s.isError = status == "failed"_L1;
        return s;
    }
    default:
        return std::nullopt;
    }
}

} // namespace Sonde

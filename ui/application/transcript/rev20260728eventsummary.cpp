// SPDX-License-Identifier: MIT
#include "application/transcript/rev20260728eventsummary.h"
#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString listenName(const QJsonValue &listenId)
{
    const QString id = JsonRpcMessage::idText(listenId);
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
    using D = LifecycleDetails;
    Rev20260728EventSummary s;
    if (const auto *chosen = e.detailsAs<D::EraChosen>()) {
        s.summary = tr("era %1").arg(chosen->era.isEmpty() ? tr("(unknown)") : chosen->era);
        if (chosen->protocolVersion && !chosen->protocolVersion->isEmpty())
            s.summary += tr(", protocol %1").arg(*chosen->protocolVersion);
        if (!chosen->reason.isEmpty())
            s.summary += u": "_s + chosen->reason;
        if (chosen->supported && !chosen->supported->isEmpty())
            s.summary += tr(" (the server supports %1)").arg(chosen->supported->join(u", "_s));
        // Found beside the probe that decided it.
        if (chosen->reason.contains("server/discover"_L1))
            s.method = u"server/discover"_s;
        return s;
    }
    if (const auto *input = e.detailsAs<D::InputRequired>()) {
        QStringList asked;
        for (auto it = input->requests.begin(); it != input->requests.end(); ++it)
            asked.append(it.value().toString() + u" ("_s + it.key() + u')');
        s.method = input->method;
        s.id = JsonRpcMessage::idText(input->id);
        const QString call = s.method + (input->name.isEmpty() ? QString() : u' ' + input->name) +
                             (s.id.isEmpty() ? QString() : u" #"_s + s.id);
        s.summary = tr("input required: %1 asked for %2, round %3")
                        .arg(call, joined(asked))
                        .arg(input->round);
        const QString next = JsonRpcMessage::idText(input->nextId);
        if (!next.isEmpty())
            s.summary += tr("; answered as #%1").arg(next);
        return s;
    }
    if (const auto *ack = e.detailsAs<D::ListenAcknowledged>()) {
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(ack->id);
        s.summary = tr("%1 acknowledged: granted %2")
                        .arg(listenName(ack->id), joined(filterItems(ack->granted)));
        if (const QStringList refused = notGranted(ack->requested, ack->granted);
            !refused.isEmpty())
            s.summary += tr("; asked for but not granted: %1").arg(refused.join(u", "_s));
        return s;
    }
    if (const auto *ended = e.detailsAs<D::ListenEnded>()) {
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(ended->id);
        s.summary = ended->graceful
                        ? tr("%1 ended: the server completed it").arg(listenName(ended->id))
                        : tr("%1 ended").arg(listenName(ended->id));
        return s;
    }
    if (const auto *dropped = e.detailsAs<D::ListenDropped>()) {
        s.method = u"subscriptions/listen"_s;
        s.id = JsonRpcMessage::idText(dropped->id);
        s.isError = true;
        s.summary = tr("%1 dropped").arg(listenName(dropped->id)) +
                    (dropped->reason.isEmpty() ? QString() : u": "_s + dropped->reason);
        const qint64 retry = dropped->retryInMs;
        if (retry >= 0)
            s.summary += retry % 1000 == 0 ? tr("; listening again in %1 s").arg(retry / 1000)
                                           : tr("; listening again in %1 ms").arg(retry);
        return s;
    }
    if (const auto *task = e.detailsAs<D::TaskStatus>()) {
        // A call the server turned into a task: filed with the call that started it.
        s.method = u"tools/call"_s;
        s.id = JsonRpcMessage::idText(task->id);
        s.summary = tr("task %1 %2").arg(task->taskId, task->status);
        if (task->message && !task->message->isEmpty())
            s.summary += u": "_s + *task->message;
        if (!s.id.isEmpty())
            s.summary += tr(" (call #%1)").arg(s.id);
        s.isError = task->status == "failed"_L1;
        return s;
    }
    return std::nullopt;
}

} // namespace Sonde

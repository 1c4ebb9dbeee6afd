// SPDX-License-Identifier: MIT
#include "application/transcript/replayrequest.h"
#include "protocol/mcp.h"

#include <QDateTime>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

bool sameId(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isDouble() && b.isDouble())
        return a.toInteger() == b.toInteger();
    return a == b;
}

QJsonObject frameOf(const TranscriptEvent &e)
{
    return QJsonDocument::fromJson(e.raw).object();
}

} // namespace

bool ReplayRequest::isVerdict(EventKind kind)
{
    return kind == EventKind::OutcomeUncertain || kind == EventKind::SentAgain ||
           kind == EventKind::BreakerRefused;
}

std::optional<ReplayRequest> ReplayRequest::fromEvent(const TranscriptEvent &event, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (event.direction != TranscriptEvent::Direction::Outgoing)
        return fail(u"only a request Sonde sent can be sent again"_s);
    const QJsonObject msg = frameOf(event);
    const QString method = msg.value("method"_L1).toString();
    if (method.isEmpty())
        return fail(u"the record holds no JSON-RPC request"_s);
    if (!msg.contains("id"_L1))
        return fail(u"%1 is a notification: it has no answer to compare"_s.arg(method));
    if (Mcp::isHandshake(method))
        return fail(
            u"%1 is the session's handshake: it cannot be sent into a live session"_s.arg(method));
    ReplayRequest r;
    r.server = event.server;
    r.generation = event.generation;
    r.recordedId = msg.value("id"_L1);
    r.recordedAtMs = event.timeMs;
    r.method = method;
    r.params = msg.value("params"_L1).toObject();
    r.params.remove("_meta"_L1);
    if (method == "tools/call"_L1)
        r.tool = r.params.value("name"_L1).toString();
    r.m_waitId = r.recordedId;
    r.m_waitGeneration = r.generation;
    return r;
}

void ReplayRequest::collect(const std::function<const TranscriptEvent *(qint64)> &eventAt,
                            qint64 from, qint64 end)
{
    const qint64 last = std::min(end, from + MaxScanRecords);
    for (qint64 row = from; row < last; ++row)
        if (const TranscriptEvent *e = eventAt(row); e && take(*e))
            return;
}

bool ReplayRequest::take(const TranscriptEvent &event)
{
    using Direction = TranscriptEvent::Direction;
    if (answered() || event.server != server)
        return answered();
    if (const HistoryEvent::VerdictCall *call =
            event.history() ? event.history()->verdictCall() : nullptr) {
        // The ids are JSON-RPC ids, compared as the wire has them.
        const int gen = call->generation.value_or(event.generation);
        const QJsonValue requestId =
            call->requestId ? QJsonValue(*call->requestId) : QJsonValue(QJsonValue::Undefined);
        if (!sameId(requestId, m_waitId) || gen != m_waitGeneration)
            return false;
        verdicts.append(event);
        if (const auto *again = event.detailsAs<HistoryEvent::SentAgain>()) {
            m_waitId = again->newRequestId ? QJsonValue(*again->newRequestId)
                                           : QJsonValue(QJsonValue::Undefined);
            m_waitGeneration = again->newGeneration;
        }
        return false;
    }
    if (event.direction != Direction::Incoming || event.generation != m_waitGeneration)
        return false;
    const QJsonObject msg = frameOf(event);
    if (msg.contains("method"_L1) || !sameId(msg.value("id"_L1), m_waitId) ||
        !(msg.contains("result"_L1) || msg.contains("error"_L1)))
        return false;
    answerFrame = msg;
    return true;
}

QJsonValue ReplayRequest::recordedAnswer() const
{
    if (!answered())
        return QJsonValue(QJsonValue::Undefined);
    if (answerFrame.contains("error"_L1))
        return QJsonObject{{"error"_L1, answerFrame.value("error"_L1)}};
    return answerFrame.value("result"_L1);
}

QJsonValue ReplayRequest::answerOf(bool ok, const QJsonValue &result, int code,
                                   const QString &message, const QJsonValue &data)
{
    if (ok)
        return result;
    QJsonObject error{{"code"_L1, code}, {"message"_L1, message}};
    if (!data.isNull() && !data.isUndefined())
        error.insert("data"_L1, data);
    return QJsonObject{{"error"_L1, error}};
}

ReplayVerdict ReplayRequest::verdict(const QJsonArray &liveTools,
                                     const QHash<QString, bool> &overrides) const
{
    ReplayPolicy policy;
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        policy.setOverride(it.key(), it.value());
    QJsonObject entry;
    for (const QJsonValue &t : liveTools)
        if (t.toObject().value("name"_L1).toString() == tool)
            entry = t.toObject();
    return policy.verdict(method, tool, entry);
}

QString ReplayRequest::shortJson(const QJsonValue &v, int most)
{
    QString text;
    if (v.isObject())
        text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    else if (v.isArray())
        text = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    else
        text = v.isNull() ? u"null"_s : v.toVariant().toString();
    return text.size() > most ? text.left(most) + u'…' : text;
}

QString ReplayRequest::title() const
{
    return tool.isEmpty() ? method : method + u' ' + tool;
}

QString ReplayRequest::recordedOutcomeText() const
{
    QStringList lines;
    const QString when =
        QDateTime::fromMSecsSinceEpoch(recordedAtMs).toString(u"yyyy-MM-dd HH:mm:ss"_s);
    if (!answered()) {
        lines.append(
            u"When it ran (%1, generation %2) no answer was recorded for it."_s.arg(when).arg(
                generation));
    } else if (answerFrame.contains("error"_L1)) {
        const QJsonObject e = answerFrame.value("error"_L1).toObject();
        lines.append(u"When it ran (%1, generation %2) it failed: error %3, \"%4\"."_s.arg(when)
                         .arg(generation)
                         .arg(e.value("code"_L1).toInteger())
                         .arg(shortJson(e.value("message"_L1), 200)));
    } else {
        const QJsonObject result = answerFrame.value("result"_L1).toObject();
        QStringList texts;
        for (const QJsonValue &block : result.value("content"_L1).toArray())
            if (block.toObject().value("type"_L1).toString() == "text"_L1)
                texts.append(block.toObject().value("text"_L1).toString());
        QString line = u"When it ran (%1, generation %2) it answered"_s.arg(when).arg(generation);
        if (!tool.isEmpty())
            line += result.value("isError"_L1).toBool() ? u" with isError true"_s
                                                        : u" with isError false"_s;
        line += texts.isEmpty() ? u": %1."_s.arg(shortJson(result, 200))
                                : u": \"%1\"."_s.arg(shortJson(texts.join(u'\n'), 200));
        lines.append(line);
    }
    // The verdicts' own texts, as their records write them (shortJson: quoted, cut).
    const auto text = [](const std::optional<QString> &s, int max) {
        return shortJson(s ? QJsonValue(*s) : QJsonValue(QJsonValue::Undefined), max);
    };
    for (const TranscriptEvent &v : verdicts) {
        if (const auto *uncertain = v.detailsAs<HistoryEvent::OutcomeUncertain>())
            lines.append(u"Its outcome was uncertain (%1): it may or may not have run."_s.arg(
                text(uncertain->rule, 80)));
        else if (const auto *again = v.detailsAs<HistoryEvent::SentAgain>())
            lines.append(u"It was sent again as request %1 in generation %2."_s.arg(
                again->newRequestId ? QString::number(*again->newRequestId) : text({}, 40),
                QString::number(again->newGeneration)));
        else if (const auto *refused = v.detailsAs<HistoryEvent::BreakerRefused>())
            lines.append(u"The circuit breaker refused it (%1)."_s.arg(text(refused->cause, 80)));
    }
    return lines.join(u'\n');
}

} // namespace Sonde

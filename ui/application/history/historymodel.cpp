// SPDX-License-Identifier: MIT
#include "application/history/historymodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using H = HistoryEvent;

// The texts that are set and not empty.
template <typename... Text> QStringList texts(const Text &...text)
{
    QStringList out;
    const auto add = [&out](const auto &t) {
        if constexpr (std::is_same_v<std::decay_t<decltype(t)>, QString>) {
            if (!t.isEmpty())
                out.append(t);
        } else if (t && !t->isEmpty()) {
            out.append(*t);
        }
    };
    (add(text), ...);
    return out;
}

// The What column: the trigger, the rule, the detail, the cause, the fault, the method and
// the error, those the kind has, in that order; a breaker transition first says itself.
QString whatOf(const HistoryEvent &e)
{
    const QStringList parts = std::visit(
        []<typename S>(const S &b) {
            if constexpr (std::is_same_v<S, H::Classification>)
                return texts(b.rule, b.detail, b.method);
            else if constexpr (std::is_same_v<S, H::SessionEnd> ||
                               std::is_same_v<S, H::SuspectSession>)
                return texts(b.cause);
            else if constexpr (std::is_same_v<S, H::ReconnectAttempt>)
                return texts(b.trigger);
            else if constexpr (std::is_same_v<S, H::Reconnect>)
                return texts(b.trigger, b.error);
            else if constexpr (std::is_same_v<S, H::KeepaliveFailed>)
                return texts(b.error);
            else if constexpr (std::is_same_v<S, H::Breaker>)
                return QStringList{u"%1 → %2 (%3/%4)"_s.arg(enumName(b.from), enumName(b.to))
                                       .arg(b.strikes)
                                       .arg(b.threshold)} +
                       texts(b.cause);
            else if constexpr (std::is_same_v<S, H::CallWaitsForReconnect> ||
                               std::is_same_v<S, H::RecoveryBudgetSpent>)
                return texts(b.method);
            else if constexpr (std::is_same_v<S, H::Fault>)
                return texts(b.description, b.error);
            else if constexpr (std::is_same_v<S, H::OutcomeUncertain> ||
                               std::is_same_v<S, H::SentAgain>)
                return texts(b.rule, b.detail, b.call.method);
            else if constexpr (std::is_same_v<S, H::BreakerRefused>)
                return texts(b.cause, b.call.method);
            else
                return QStringList();
        },
        e.body);
    return parts.join(u"; "_s);
}

// A reconnect's (or an attempt's) generations, from → to; else the one the entry names.
QVariant generationOf(const HistoryEvent &e)
{
    const auto fromTo = [](int from, std::optional<int> to) {
        return u"%1 → %2"_s.arg(from).arg(to ? QString::number(*to) : u"–"_s);
    };
    if (const auto *r = e.as<H::Reconnect>())
        return fromTo(r->fromGeneration, r->toGeneration);
    if (const auto *a = e.as<H::ReconnectAttempt>())
        return fromTo(a->fromGeneration, std::nullopt);
    std::optional<int> generation;
    if (const auto *s = e.as<H::SessionStart>())
        generation = s->generation;
    else if (const auto *end = e.as<H::SessionEnd>())
        generation = end->generation;
    else if (const auto *c = e.as<H::Classification>())
        generation = c->generation;
    else if (const H::VerdictCall *call = e.verdictCall())
        generation = call->generation;
    return generation ? QVariant(*generation) : QVariant();
}

} // namespace

void HistoryModel::setHistory(const QList<HistoryEvent> &events)
{
    // The snapshot carries the most recent events: extend when it continues what we show,
    // otherwise start over.
    const bool continues = !m_events.isEmpty() && events.size() >= m_events.size() &&
                           events.at(m_events.size() - 1) == m_events.last() &&
                           events.at(0) == m_events.first();
    if (continues) {
        if (events.size() == m_events.size())
            return;
        beginInsertRows({}, int(m_events.size()), int(events.size()) - 1);
        m_events = events;
        endInsertRows();
        return;
    }
    beginResetModel();
    m_events = events;
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const QStringList names = {u"Time"_s,       u"Event"_s,    u"What"_s,
                                      u"Generation"_s, u"Duration"_s, u"Outcome"_s};
    return names.value(section);
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryEvent &e = m_events.at(index.row());
    if (role == EventRole)
        return QVariant::fromValue(e);
    const auto *reconnect = e.as<H::Reconnect>();
    if (role == Qt::ForegroundRole) {
        const auto *breaker = e.as<H::Breaker>();
        if ((reconnect && reconnect->outcome == ReconnectOutcome::Failed) ||
            (breaker && breaker->to == BreakerPhase::Open))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(u"HH:mm:ss.zzz"_s);
    case Event:
        return eventKindName(e.kind());
    case What:
        return whatOf(e);
    case Generation:
        return generationOf(e);
    case Duration:
        return reconnect ? QVariant(u"%1 ms"_s.arg(reconnect->durationMs)) : QVariant();
    case Outcome:
        return reconnect ? enumName(reconnect->outcome) : QString();
    }
    return {};
}

} // namespace Sonde

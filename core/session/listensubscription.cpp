// SPDX-License-Identifier: MIT
#include "session/listensubscription.h"

#include "util/enumnames.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

static const char *const kStateNames[] = {"none",  "open",    "acknowledged",
                                          "ended", "dropped", "refused"};

QString ListenSubscription::stateName(State state)
{
    return enumName(kStateNames, state);
}

QJsonObject ListenSubscription::filterFor(const QJsonObject &caps, const QSet<QString> &uris)
{
    QJsonObject f;
    auto listChanged = [&](const char *capability) {
        return caps.value(QLatin1StringView(capability))
            .toObject()
            .value("listChanged"_L1)
            .toBool();
    };
    if (listChanged("tools"))
        f.insert("toolsListChanged"_L1, true);
    if (listChanged("prompts"))
        f.insert("promptsListChanged"_L1, true);
    if (listChanged("resources"))
        f.insert("resourcesListChanged"_L1, true);
    if (!uris.isEmpty() && caps.value("resources"_L1).toObject().value("subscribe"_L1).toBool()) {
        QStringList sorted(uris.begin(), uris.end());
        std::sort(sorted.begin(), sorted.end());
        f.insert("resourceSubscriptions"_L1, QJsonArray::fromStringList(sorted));
    }
    return f;
}

void ListenSubscription::opened(const QJsonValue &id, const QJsonObject &requested)
{
    m_state = State::Open;
    m_id = id;
    m_requested = requested;
    m_granted = {};
    m_reason.clear();
}

void ListenSubscription::acknowledged(const QJsonObject &granted)
{
    m_state = State::Acknowledged;
    m_granted = granted;
    m_nextDelayMs = 1000;
}

int ListenSubscription::dropped(const QString &reason)
{
    m_state = State::Dropped;
    m_reason = reason;
    m_id = QJsonValue(QJsonValue::Undefined);
    const int delay = m_nextDelayMs;
    m_nextDelayMs = std::min(m_nextDelayMs * 2, 30'000);
    return delay;
}

void ListenSubscription::ended(State how, const QString &reason)
{
    m_state = how;
    m_reason = reason;
    m_id = QJsonValue(QJsonValue::Undefined);
}

void ListenSubscription::reset()
{
    *this = ListenSubscription();
}

bool ListenSubscription::isCurrent(const QJsonValue &subscriptionId) const
{
    if (m_id.isUndefined() || subscriptionId.isUndefined())
        return false;
    // The id may come back as a number where it went as one: compare by value.
    return subscriptionId == m_id || (subscriptionId.isDouble() && m_id.isDouble() &&
                                      subscriptionId.toInteger() == m_id.toInteger());
}

QStringList ListenSubscription::notGranted() const
{
    QStringList missing;
    for (auto it = m_requested.begin(); it != m_requested.end(); ++it) {
        if (it.key() == "resourceSubscriptions"_L1) {
            const QJsonArray granted = m_granted.value(it.key()).toArray();
            for (const QJsonValue &uri : it.value().toArray())
                if (!granted.contains(uri))
                    missing.append(uri.toString());
        } else if (!m_granted.value(it.key()).toBool()) {
            missing.append(it.key());
        }
    }
    return missing;
}

QJsonObject ListenSubscription::toJson() const
{
    QJsonObject o{{"state"_L1, stateName(m_state)}};
    if (!m_id.isUndefined())
        o.insert("id"_L1, m_id);
    if (!m_requested.isEmpty())
        o.insert("requested"_L1, m_requested);
    if (m_state == State::Acknowledged) {
        o.insert("granted"_L1, m_granted);
        if (const QStringList missing = notGranted(); !missing.isEmpty())
            o.insert("not_granted"_L1, QJsonArray::fromStringList(missing));
    }
    if (!m_reason.isEmpty())
        o.insert("reason"_L1, m_reason);
    return o;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "session/listensubscription.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

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
    m_status.state = ListenStatus::State::Open;
    m_status.id = id;
    m_status.requested = requested;
    m_status.granted = {};
    m_status.reason.clear();
}

void ListenSubscription::acknowledged(const QJsonObject &granted)
{
    m_status.state = ListenStatus::State::Acknowledged;
    m_status.granted = granted;
    m_nextDelayMs = 1000;
}

int ListenSubscription::dropped(const QString &reason)
{
    m_status.state = ListenStatus::State::Dropped;
    m_status.reason = reason;
    m_status.id = QJsonValue(QJsonValue::Undefined);
    const int delay = m_nextDelayMs;
    m_nextDelayMs = std::min(m_nextDelayMs * 2, 30'000);
    return delay;
}

void ListenSubscription::ended(ListenStatus::State how, const QString &reason)
{
    m_status.state = how;
    m_status.reason = reason;
    m_status.id = QJsonValue(QJsonValue::Undefined);
}

void ListenSubscription::reset()
{
    *this = ListenSubscription();
}

bool ListenSubscription::isCurrent(const QJsonValue &subscriptionId) const
{
    const QJsonValue &id = m_status.id;
    if (id.isUndefined() || subscriptionId.isUndefined())
        return false;
    // The id may come back as a number where it went as one: compare by value.
    return subscriptionId == id || (subscriptionId.isDouble() && id.isDouble() &&
                                    subscriptionId.toInteger() == id.toInteger());
}

} // namespace Sonde

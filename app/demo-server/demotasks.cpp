// SPDX-License-Identifier: MIT
#include "demotasks.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

QJsonObject DemoTasks::start(int ms, const QJsonObject &result, const QString &message)
{
    const QString id = u"demo-task-%1"_s.arg(m_next++);
    Task t;
    t.message = message;
    t.result = result;
    t.created = t.updated = QDateTime::currentDateTimeUtc();
    t.timer = new QTimer(this);
    t.timer->setSingleShot(true);
    connect(t.timer, &QTimer::timeout, this, [this, id] {
        auto it = m_tasks.find(id);
        if (it == m_tasks.end() || it->status != "working"_L1)
            return;
        it->status = u"completed"_s;
        it->message = u"done"_s;
        it->updated = QDateTime::currentDateTimeUtc();
    });
    t.timer->start(ms);
    m_tasks.insert(id, t);
    QJsonObject created = describe(id, t);
    created.insert("resultType"_L1, "task"_L1);
    return created;
}

QJsonObject DemoTasks::get(const QString &taskId) const
{
    const auto it = m_tasks.constFind(taskId);
    if (it == m_tasks.constEnd())
        return {};
    QJsonObject d = describe(taskId, *it);
    if (it->status == "completed"_L1)
        d.insert("result"_L1, it->result);
    return d;
}

bool DemoTasks::cancel(const QString &taskId)
{
    auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return false;
    if (it->status == "working"_L1) {
        it->timer->stop();
        it->status = u"cancelled"_s;
        it->message = u"cancelled by the client"_s;
        it->updated = QDateTime::currentDateTimeUtc();
    }
    return true;
}

QJsonObject DemoTasks::describe(const QString &taskId, const Task &t) const
{
    return {{"taskId"_L1, taskId},
            {"status"_L1, t.status},
            {"statusMessage"_L1, t.message},
            {"createdAt"_L1, t.created.toString(Qt::ISODateWithMs)},
            {"lastUpdatedAt"_L1, t.updated.toString(Qt::ISODateWithMs)},
            {"ttlMs"_L1, 600'000},
            {"pollIntervalMs"_L1, PollIntervalMs}};
}

} // namespace Sonde

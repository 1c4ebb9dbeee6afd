// SPDX-License-Identifier: MIT
#include "session/taskhandle.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<TaskHandle> TaskHandle::from(const QJsonObject &createTaskResult, QString *why)
{
    TaskHandle t;
    t.m_taskId = createTaskResult.value("taskId"_L1).toString();
    if (t.m_taskId.isEmpty()) {
        *why = u"a task result without a taskId"_s;
        return std::nullopt;
    }
    if (t.read(createTaskResult) == Next::Invalid) {
        *why = t.m_why;
        return std::nullopt;
    }
    return t;
}

TaskHandle::Next TaskHandle::update(const QJsonObject &detailedTask)
{
    if (detailedTask.value("taskId"_L1).toString() != m_taskId) {
        m_why = u"tasks/get answered for task \"%1\", not \"%2\""_s.arg(
            detailedTask.value("taskId"_L1).toString(), m_taskId);
        return Next::Invalid;
    }
    return read(detailedTask);
}

TaskHandle::Next TaskHandle::read(const QJsonObject &task)
{
    const QString status = task.value("status"_L1).toString();
    m_changed = status != m_status || task.value("statusMessage"_L1).toString() != m_message;
    m_status = status;
    m_message = task.value("statusMessage"_L1).toString();
    m_last = task;
    if (task.value("pollIntervalMs"_L1).isDouble())
        m_pollMs = task.value("pollIntervalMs"_L1).toInt();
    if (status == "working"_L1)
        return Next::Poll;
    if (status == "input_required"_L1)
        return task.value("inputRequests"_L1).isObject() ? Next::Input : Next::Poll;
    if (status == "completed"_L1) {
        m_result = task.value("result"_L1).toObject();
        return Next::Completed;
    }
    if (status == "failed"_L1) {
        m_error = task.value("error"_L1).toObject();
        return Next::Failed;
    }
    if (status == "cancelled"_L1)
        return Next::Cancelled;
    m_why = u"a task with status \"%1\", which the tasks extension does not define"_s.arg(status);
    return Next::Invalid;
}

int TaskHandle::nextDelayMs() const
{
    return std::clamp(m_pollMs, 100, 60'000);
}

} // namespace Sonde

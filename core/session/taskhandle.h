// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

// A task of the io.modelcontextprotocol/tasks extension (SEP-2663), as the client follows it:
// the handle a call answered with (resultType "task"), and each tasks/get answer read into
// what to do next. Pure; the session polls, answers input and finishes the call.
class TaskHandle
{
public:
    enum class Next
    {
        Poll,      // working: ask again after nextDelayMs()
        Input,     // input_required: answer its inputRequests with tasks/update
        Completed, // result() is the original request's result
        Failed,    // error() is the JSON-RPC error
        Cancelled,
        Invalid // an answer that is not a task (why())
    };

    static std::optional<TaskHandle> from(const QJsonObject &createTaskResult, QString *why);
    Next update(const QJsonObject &detailedTask);

    QString taskId() const { return m_taskId; }
    QString status() const { return m_status; }
    QString statusMessage() const { return m_message; }
    bool statusChanged() const { return m_changed; }
    // The server's pollIntervalMs, kept between 100 ms and 60 s (1 s when it gives none).
    int nextDelayMs() const;
    QJsonObject result() const { return m_result; }
    QJsonObject error() const { return m_error; }
    QJsonObject inputTask() const { return m_last; }
    QString why() const { return m_why; }

private:
    Next read(const QJsonObject &task);

    QString m_taskId;
    QString m_status;
    QString m_message;
    int m_pollMs = 1000;
    bool m_changed = false;
    QJsonObject m_result;
    QJsonObject m_error;
    QJsonObject m_last;
    QString m_why;
};

} // namespace Sonde

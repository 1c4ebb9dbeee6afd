// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>

class QTimer;

namespace Sonde {

// The demo server's tasks (the io.modelcontextprotocol/tasks extension, SEP-2663): a call
// that takes `ms` becomes a task when the client declared the extension, and tasks/get,
// tasks/cancel answer from here. Over HTTP every modern request reaches one DemoServer, so a
// task outlives the POST that created it. Thread: the server's.
class DemoTasks : public QObject
{
    Q_OBJECT
public:
    static constexpr int PollIntervalMs = 100;

    using QObject::QObject;
    // Starts a task that completes with `result` after `ms`; returns its CreateTaskResult.
    QJsonObject start(int ms, const QJsonObject &result, const QString &message);
    // The DetailedTask for tasks/get; empty for an unknown id.
    QJsonObject get(const QString &taskId) const;
    bool cancel(const QString &taskId);
    bool contains(const QString &taskId) const { return m_tasks.contains(taskId); }

private:
    struct Task
    {
        QString status = QStringLiteral("working");
        QString message;
        QJsonObject result;
        QDateTime created;
        QDateTime updated;
        QTimer *timer = nullptr;
    };
    QJsonObject describe(const QString &taskId, const Task &t) const;

    QHash<QString, Task> m_tasks;
    int m_next = 1;
};

} // namespace Sonde

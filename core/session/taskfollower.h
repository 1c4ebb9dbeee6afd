// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "protocol/jsonrpcmessage.h"
#include "session/taskhandle.h"
#include "values/lifecycledetails.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace Sonde {

class ClockTimer;
class SessionHost;

// The calls a server turned into tasks (io.modelcontextprotocol/tasks, SEP-2663): each is
// polled with tasks/get at the interval the server asks for, until it completes, fails, is
// cancelled or outlives the session's total cap; the input a task asks for is answered with
// tasks/update. Its status changes reach the transcript and, for a call with a progress token,
// its progress line. Thread: the session's.
class TaskFollower
{
public:
    // Puts the questions of the call's input round (Operation::input) to the user, under ids
    // that start with `prefix`.
    using AskForInput = std::function<void(quint64 ticket, const QString &prefix)>;

    TaskFollower(SessionHost &host, AskForInput askForInput);
    ~TaskFollower();
    TaskFollower(const TaskFollower &) = delete;
    TaskFollower &operator=(const TaskFollower &) = delete;

    // The call's answer made a task (a CreateTaskResult): follow it.
    void follow(quint64 ticket, const QJsonObject &createTaskResult);
    bool follows(quint64 ticket) const { return m_tasks.contains(ticket); }
    // The input the task asked for is all in: send it.
    void sendInput(quint64 ticket);
    // A task is cancelled by its own method, never by notifications/cancelled.
    void cancel(quint64 ticket);
    void stop(quint64 ticket);
    void stopAll();

private:
    struct Followed
    {
        TaskHandle task;
        qint64 startedMs = 0;
        ClockTimer *timer = nullptr; // the next tasks/get
    };
    void poll(quint64 ticket);
    void pollNow(quint64 ticket);
    void onAnswer(quint64 ticket, const JsonRpcMessage &response, const Error &error);
    void sayStatus(quint64 ticket, const Followed &f);
    LifecycleDetails::TaskStatus statusOf(quint64 ticket, const TaskHandle &task) const;

    SessionHost &m_host;
    AskForInput m_askForInput;
    QHash<quint64, Followed> m_tasks; // ticket -> its task
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "session/taskfollower.h"

#include "config/serverconfig.h"
#include "session/operation.h"
#include "session/sessionhost.h"
#include "util/clock.h"
#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

TaskFollower::TaskFollower(SessionHost &host, AskForInput askForInput)
    : m_host(host), m_askForInput(std::move(askForInput))
{
}

TaskFollower::~TaskFollower()
{
    stopAll();
}

void TaskFollower::follow(quint64 ticket, const QJsonObject &createTaskResult)
{
    QString why;
    std::optional<TaskHandle> task = TaskHandle::from(createTaskResult, &why);
    if (!task) {
        m_host.finish(ticket, {}, Error::protocol(u"a malformed task: "_s + why));
        return;
    }
    Followed &f = m_tasks[ticket];
    f.task = std::move(*task);
    f.startedMs = m_host.clock().nowMs();
    LifecycleDetails::TaskStatus details = statusOf(ticket, f.task);
    details.pollMs = f.task.nextDelayMs();
    m_host.record(details);
    poll(ticket); // scheduled: the first tasks/get after pollIntervalMs
}

void TaskFollower::poll(quint64 ticket)
{
    const auto it = m_tasks.find(ticket);
    if (it == m_tasks.end() || !m_host.operation(ticket))
        return;
    if (!it->timer) {
        it->timer = m_host.clock().createTimer(m_host.context());
        QObject::connect(it->timer, &ClockTimer::timeout, m_host.context(),
                         [this, ticket] { pollNow(ticket); });
    }
    it->timer->start(it->task.nextDelayMs());
}

void TaskFollower::pollNow(quint64 ticket)
{
    const auto it = m_tasks.constFind(ticket);
    if (it == m_tasks.constEnd() || !m_host.operation(ticket))
        return;
    it->timer->stop();
    const qint64 cap = m_host.config().maxRequestTotalMs;
    if (m_host.clock().nowMs() - it->startedMs > cap) {
        m_host.finish(ticket, {},
                      Error::timeout(u"task %1 was still %2 after %3 ms; Sonde stopped polling it"_s
                                         .arg(it->task.taskId(), it->task.status())
                                         .arg(cap)));
        return;
    }
    m_host.sendRequest(
        u"tasks/get"_s, {{"taskId"_L1, it->task.taskId()}}, m_host.config().requestTimeoutMs, {},
        [this, ticket](const JsonRpcMessage &r, const Error &e) { onAnswer(ticket, r, e); });
}

LifecycleDetails::TaskStatus TaskFollower::statusOf(quint64 ticket, const TaskHandle &task) const
{
    return {.id = m_host.requestIdOf(ticket),
            .taskId = task.taskId(),
            .status = task.status(),
            .message = task.statusMessage().isEmpty() ? std::nullopt
                                                      : std::optional(task.statusMessage())};
}

void TaskFollower::sayStatus(quint64 ticket, const Followed &f)
{
    m_host.record(statusOf(ticket, f.task));
    // What a front end already shows for a running call: its progress line.
    const Operation *op = m_host.operation(ticket);
    const QString token = op ? op->request.progressToken() : QString();
    if (token.isEmpty())
        return;
    const QString message = u"task %1: %2%3"_s.arg(
        f.task.taskId(), f.task.status(),
        f.task.statusMessage().isEmpty() ? QString() : u" — "_s + f.task.statusMessage());
    m_host.notify(ServerNotification{
        m_host.config().name, m_host.generation(), m_host.clock().nowMs(),
        u"notifications/progress"_s,
        QJsonObject{{"progressToken"_L1, token},
                    {"progress"_L1, 0},
                    {"message"_L1, message},
                    {"_meta"_L1, QJsonObject{{"sonde/from"_L1, u"tasks/get"_s}}}}});
}

void TaskFollower::onAnswer(quint64 ticket, const JsonRpcMessage &response, const Error &error)
{
    const auto it = m_tasks.find(ticket);
    Operation *op = m_host.operation(ticket);
    if (it == m_tasks.end() || !op)
        return;
    if (error.isError()) {
        m_host.finish(ticket, {}, error);
        return;
    }
    const TaskHandle::Next next = it->task.update(response.result().toObject());
    if (it->task.statusChanged())
        sayStatus(ticket, *it);
    // Copied: finishing the call stops its task, and that erases the entry.
    const TaskHandle task = it->task;
    switch (next) {
    case TaskHandle::Next::Poll:
        poll(ticket);
        return;
    case TaskHandle::Next::Input: {
        QString why;
        op->input = InputRound::from(task.inputTask(), &why);
        if (!op->input) {
            m_host.finish(ticket, {},
                          Error::protocol(u"a malformed input_required task: "_s + why));
            return;
        }
        ++op->rounds;
        m_askForInput(ticket, u"task"_s);
        return;
    }
    case TaskHandle::Next::Completed:
        m_host.finish(ticket, task.result(), {});
        return;
    case TaskHandle::Next::Failed: {
        const QJsonObject e = task.error();
        m_host.finish(ticket, {},
                      Error::remote(e.value("code"_L1).toInt(JsonRpcCode::InternalError),
                                    u"task %1 failed: %2"_s.arg(task.taskId(),
                                                                e.value("message"_L1).toString()),
                                    e.value("data"_L1)));
        return;
    }
    case TaskHandle::Next::Cancelled:
        m_host.finish(
            ticket, {},
            Error::cancelled(u"the server cancelled task %1%2"_s.arg(
                task.taskId(),
                task.statusMessage().isEmpty() ? QString() : u": "_s + task.statusMessage())));
        return;
    case TaskHandle::Next::Invalid:
        m_host.finish(ticket, {}, Error::protocol(task.why()));
        return;
    }
}

void TaskFollower::sendInput(quint64 ticket)
{
    const auto it = m_tasks.constFind(ticket);
    Operation *op = m_host.operation(ticket);
    if (it == m_tasks.constEnd() || !op || !op->input)
        return;
    const QJsonObject params = op->input->retryParams({{"taskId"_L1, it->task.taskId()}});
    op->input.reset();
    m_host.sendRequest(u"tasks/update"_s, params, m_host.config().requestTimeoutMs, {},
                       [this, ticket](const JsonRpcMessage &, const Error &e) {
                           if (e.isError()) {
                               m_host.finish(ticket, {}, e);
                               return;
                           }
                           poll(ticket);
                       });
}

void TaskFollower::cancel(quint64 ticket)
{
    const auto it = m_tasks.constFind(ticket);
    if (it == m_tasks.constEnd())
        return;
    // The acknowledgment changes nothing here, so nothing waits for it.
    m_host.sendRequest(u"tasks/cancel"_s, {{"taskId"_L1, it->task.taskId()}},
                       m_host.config().requestTimeoutMs, {},
                       [](const JsonRpcMessage &, const Error &) {});
}

void TaskFollower::stop(quint64 ticket)
{
    const Followed f = m_tasks.take(ticket);
    if (f.timer) {
        f.timer->stop();
        f.timer->deleteLater();
    }
}

void TaskFollower::stopAll()
{
    const QList<quint64> tickets = m_tasks.keys();
    for (quint64 t : tickets)
        stop(t);
}

} // namespace Sonde

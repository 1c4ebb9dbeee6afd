// SPDX-License-Identifier: MIT
#include "execsession.h"

#include "clistepparser.h"
#include "linereader.h"
#include "steprunner.h"

#include <QFile>
#include <QJsonDocument>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

ExecSession::ExecSession(QObject *parent) : QObject(parent)
{
}

ExecSession::~ExecSession() = default;

bool ExecSession::open(const QString &path, QString *error)
{
    if (path == "-"_L1) {
        // Read as the steps come, from the start: they queue while the server starts.
        m_stdinReader = std::make_unique<LineReader>(0);
        connect(m_stdinReader.get(), &LineReader::lineRead, this, &ExecSession::onLine);
        connect(m_stdinReader.get(), &LineReader::endOfInput, this, &ExecSession::onInputEnded);
        m_stdinReader->start();
        return true;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot read steps from %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    for (const QByteArray &line : f.readAll().split('\n'))
        onLine(line);
    onInputEnded({});
    return true;
}

void ExecSession::start(StepRunner &runner)
{
    m_runner = &runner;
    pump();
}

void ExecSession::stop()
{
    m_stopped = true;
}

void ExecSession::onLine(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    Line l{++m_read, line};
    const QJsonObject step = QJsonDocument::fromJson(line).object();
    if (step.value("op"_L1).toString() == "cancel"_L1)
        l.cancels = step.value("step"_L1).toInt();
    m_queue.append(l);
    pump();
}

void ExecSession::onInputEnded(const QString &error)
{
    if (!error.isEmpty()) {
        Q_EMIT inputFailed(error);
        m_failed = true;
    }
    m_inputEnded = true;
    pump();
}

void ExecSession::pump()
{
    // Before the session is ready steps wait; once stopping, nothing new starts.
    if (!m_runner || m_stopped)
        return;
    while (!m_blocked && !m_queue.isEmpty() && !m_stopped)
        startStep(m_queue.takeFirst());
    // Waiting on a synchronous step: a cancel for a call that runs now goes ahead of the line.
    for (qsizetype i = 0; i < m_queue.size() && !m_stopped;) {
        const Line l = m_queue.at(i);
        if (l.cancels && m_tickets.contains(l.cancels)) {
            m_queue.removeAt(i);
            startStep(l);
        } else {
            ++i;
        }
    }
    if (m_inputEnded && m_queue.isEmpty() && m_running.isEmpty())
        Q_EMIT finished(m_failed ? 1 : 0);
}

void ExecSession::startStep(const Line &line)
{
    const int stepNo = line.number;
    QJsonParseError pe;
    const QJsonDocument d = QJsonDocument::fromJson(line.text, &pe);
    if (pe.error != QJsonParseError::NoError || !d.isObject() ||
        !d.object().value("op"_L1).isString()) {
        const QString why =
            pe.error != QJsonParseError::NoError
                ? u"step is not JSON: %1 at byte %2"_s.arg(pe.errorString()).arg(pe.offset)
                : u"a step must be a JSON object with a string \"op\""_s;
        Q_EMIT stepAnswered(
            {{"step"_L1, stepNo}, {"op"_L1, QJsonValue(QJsonValue::Null)}, {"error"_L1, why}});
        m_failed = true;
        return;
    }
    const QJsonObject object = d.object();
    const QJsonValue op = object.value("op"_L1);
    QString why;
    const std::optional<CliStep> step = CliStepParser::fromJson(object, &why);
    if (op.toString() == "cancel"_L1) {
        if (step) {
            cancelStep(stepNo, std::get<CancelStep>(*step).step);
        } else {
            Q_EMIT stepAnswered({{"step"_L1, stepNo}, {"op"_L1, op}, {"error"_L1, why}});
            m_failed = true;
        }
        return;
    }
    const bool async = object.value("async"_L1).toBool();
    m_running.insert(stepNo, op);
    if (!async)
        m_blocked = true;
    auto answered = [this, stepNo, op, async](QJsonObject answer, bool ok) {
        if (!m_running.remove(stepNo))
            return; // answered already (cancelled before it started)
        m_tickets.remove(stepNo);
        answer.insert("step"_L1, stepNo);
        answer.insert("op"_L1, op);
        if (async)
            answer.insert("async"_L1, true);
        Q_EMIT stepAnswered(answer);
        m_failed |= !ok;
        if (!async)
            m_blocked = false;
        // Later, not from inside run(), which may answer before it returns.
        QTimer::singleShot(0, this, &ExecSession::pump);
    };
    if (!step) {
        answered({{"error"_L1, why}}, false);
        return;
    }
    // A request's answer comes later, through the host: the step can be cancelled till then.
    if (const quint64 ticket = m_runner->run(*step, answered))
        m_tickets.insert(stepNo, ticket);
}

void ExecSession::cancelStep(int number, int target)
{
    QJsonObject answer{{"step"_L1, number}, {"op"_L1, "cancel"_L1}};
    if (m_tickets.contains(target)) {
        // The call's own answer follows, once the server has been told (notifications/cancelled).
        m_runner->cancel(m_tickets.value(target), u"cancelled by step %1"_s.arg(number));
        answer.insert("cancelled"_L1, target);
    } else {
        answer.insert("error"_L1,
                      m_running.contains(target)
                          ? u"step %1 is not a request and cannot be cancelled"_s.arg(target)
                          : u"step %1 is not running"_s.arg(target));
        m_failed = true;
    }
    Q_EMIT stepAnswered(answer);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "conformanceclient.h"

#include "clistepparser.h"
#include "steprunner.h"

#include <QJsonArray>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

ConformanceClient::ConformanceClient(StepRunner &runner, ConformancePlan plan, QObject *parent)
    : QObject(parent), m_runner(runner), m_plan(std::move(plan))
{
}

void ConformanceClient::start()
{
    m_runner.run(ToolsListStep{}, [this](const QJsonObject &answer, bool ok) {
        Q_EMIT stepAnswered({{"op"_L1, "tools/list"_L1},
                             {"ok"_L1, ok},
                             {"tools"_L1, answer.value("tools"_L1).toArray().size()}});
        if (!ok) {
            Q_EMIT finished(1);
            return;
        }
        QList<QJsonObject> steps = m_plan.toolSteps(answer.value("tools"_L1).toArray());
        if (m_plan.coversResourcesAndPrompts()) {
            steps.append({{"op"_L1, "resources/list"_L1}, {"then"_L1, "resources/read"_L1}});
            steps.append({{"op"_L1, "prompts/list"_L1}, {"then"_L1, "prompts/get"_L1}});
        }
        runSteps(steps);
    });
}

void ConformanceClient::runSteps(QList<QJsonObject> steps)
{
    if (steps.isEmpty()) {
        Q_EMIT finished(m_failed ? 1 : 0);
        return;
    }
    const QJsonObject step = steps.takeFirst();
    auto answered = [this, step, steps](QJsonObject answer, bool ok) {
        for (auto it = step.begin(); it != step.end(); ++it)
            if (it.key() != "then"_L1)
                answer.insert(it.key(), it.value());
        Q_EMIT stepAnswered(answer);
        m_failed |= !ok;
        // A list step is followed by one read (or get) of each item it listed.
        const QString then = step.value("then"_L1).toString();
        QList<QJsonObject> more;
        if (then == "resources/read"_L1)
            for (const QJsonValue &r : answer.value("resources"_L1).toArray())
                more.append({{"op"_L1, then}, {"uri"_L1, r.toObject().value("uri"_L1)}});
        if (then == "prompts/get"_L1)
            for (const QJsonValue &p : answer.value("prompts"_L1).toArray())
                more.append({{"op"_L1, then}, {"name"_L1, p.toObject().value("name"_L1)}});
        // Deferred: this continuation belongs to the step that just ended.
        QTimer::singleShot(0, this, [this, remaining = more + steps] { runSteps(remaining); });
    };
    // The plan's steps are exec steps, read as exec reads them.
    QString why;
    if (const std::optional<CliStep> parsed = CliStepParser::fromJson(step, &why))
        m_runner.run(*parsed, answered);
    else
        answered({{"error"_L1, why}}, false);
}

} // namespace Sonde

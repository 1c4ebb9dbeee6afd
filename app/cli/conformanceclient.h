// SPDX-License-Identifier: MIT
#pragma once

#include "conformanceplan.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

namespace Sonde {

class StepRunner;

// `sonde-cli conformance-client URL`, the client the official conformance harness drives:
// lists the tools, then runs the ConformancePlan's steps one after the other (a list step
// followed by a read or get of each item it listed). Thread: the main thread. Owned by
// CliRunner; emits one compact answer per step (with the step's own members) and
// finished() with 1 when the listing or any step failed.
class ConformanceClient : public QObject
{
    Q_OBJECT
public:
    ConformanceClient(StepRunner &runner, ConformancePlan plan, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void stepAnswered(const QJsonObject &answer);
    void finished(int exitCode);

private:
    void runSteps(QList<QJsonObject> steps);

    StepRunner &m_runner;
    ConformancePlan m_plan;
    bool m_failed = false;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Sonde {

// What `sonde-cli conformance-client` does once the server's tools are listed, for the
// official suite's client scenarios. By default it is scenario-agnostic (each tool called
// with arguments drawn from its schema, as a person trying a server would). Where a
// scenario hands the client its own calls (MCP_CONFORMANCE_CONTEXT's "toolCalls") or its
// contract says what the client does with a tool (echo a schema back, only list), the plan
// follows it. Pure; the runner executes the steps as `exec` steps.
class ConformancePlan
{
public:
    ConformancePlan(QString scenario, QJsonObject context);
    // From the harness's environment (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT).
    static ConformancePlan fromEnvironment();

    // The steps after tools/list: {"op": "call", "tool", "args"}.
    QList<QJsonObject> toolSteps(const QJsonArray &tools) const;
    // Whether resources and prompts are listed and each read or got as well (the header
    // scenarios check every method that carries Mcp-Name).
    bool coversResourcesAndPrompts() const;

    static QJsonObject sampleArguments(const QJsonObject &inputSchema);

private:
    QString m_scenario;
    QJsonObject m_context;
};

} // namespace Sonde

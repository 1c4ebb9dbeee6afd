// SPDX-License-Identifier: MIT
#include "conformanceplan.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

ConformancePlan::ConformancePlan(QString scenario, QJsonObject context)
    : m_scenario(std::move(scenario)), m_context(std::move(context))
{
}

ConformancePlan ConformancePlan::fromEnvironment()
{
    return ConformancePlan(qEnvironmentVariable("MCP_CONFORMANCE_SCENARIO"),
                           QJsonDocument::fromJson(qgetenv("MCP_CONFORMANCE_CONTEXT")).object());
}

static QJsonObject callStep(const QJsonValue &tool, const QJsonObject &args)
{
    return {{"op"_L1, "call"_L1}, {"tool"_L1, tool}, {"args"_L1, args}};
}

QList<QJsonObject> ConformancePlan::toolSteps(const QJsonArray &tools) const
{
    QList<QJsonObject> steps;
    // The scenario names the calls and their exact arguments (the header scenarios compare
    // each header with the value it gave).
    if (const QJsonArray given = m_context.value("toolCalls"_L1).toArray(); !given.isEmpty()) {
        for (const QJsonValue &c : given)
            steps.append(callStep(c.toObject().value("name"_L1),
                                  c.toObject().value("arguments"_L1).toObject()));
        return steps;
    }
    // A schema with a network $ref must only be listed: nothing may fetch it.
    if (m_scenario == "json-schema-ref-no-deref"_L1)
        return steps;
    // The schema-preservation contract: send the focal tool's inputSchema back, verbatim.
    if (m_scenario == "json-schema-2020-12-preservation"_L1) {
        QJsonObject focal;
        for (const QJsonValue &t : tools)
            if (t.toObject().value("name"_L1).toString() == "json_schema_2020_12_tool"_L1)
                focal = t.toObject().value("inputSchema"_L1).toObject();
        steps.append(callStep(u"json_schema_echo"_s, {{"schema"_L1, focal}}));
        return steps;
    }
    for (const QJsonValue &t : tools) {
        const QJsonObject tool = t.toObject();
        steps.append(callStep(tool.value("name"_L1),
                              sampleArguments(tool.value("inputSchema"_L1).toObject())));
    }
    return steps;
}

bool ConformancePlan::coversResourcesAndPrompts() const
{
    return m_scenario == "http-standard-headers"_L1;
}

QJsonObject ConformancePlan::sampleArguments(const QJsonObject &inputSchema)
{
    QJsonObject args;
    const QJsonObject props = inputSchema.value("properties"_L1).toObject();
    int n = 0;
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QJsonObject p = it.value().toObject();
        const QString type = p.value("type"_L1).toString();
        QJsonValue v;
        if (p.contains("default"_L1))
            v = p.value("default"_L1);
        else if (p.value("enum"_L1).isArray())
            v = p.value("enum"_L1).toArray().first();
        else if (type == "number"_L1 || type == "integer"_L1)
            v = ++n;
        else if (type == "boolean"_L1)
            v = true;
        else if (type == "array"_L1)
            v = QJsonArray();
        else if (type == "object"_L1)
            v = QJsonObject();
        else
            v = u"sonde"_s;
        args.insert(it.key(), v);
    }
    return args;
}

} // namespace Sonde

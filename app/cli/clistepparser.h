// SPDX-License-Identifier: MIT
#pragma once

#include "clistep.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace Sonde {

// The two ways into a CliStep: sonde-cli's command words and an `exec` step object. Each
// refuses what it cannot run with the text sonde-cli says for it. Pure.
class CliStepParser
{
public:
    // `info`, `ping`, `tools list|call NAME [JSON]`, `resources list|templates|read URI`,
    // `prompts list|get NAME [JSON]`. The commands that are not a step (exec, auth,
    // conformance-client) are CliOptions's to read.
    static std::optional<CliStep> fromWords(const QStringList &words, QString *error);
    // One exec step, {"op": ..., ...} (docs/cli.md lists the ops). Scheduling members
    // ("async") are exec's own and are not read here.
    static std::optional<CliStep> fromJson(const QJsonObject &step, QString *error);
};

} // namespace Sonde

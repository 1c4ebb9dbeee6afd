// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QHash>
#include <QMap>
#include <QString>

#include <functional>
#include <optional>

namespace Sonde {

// One entry of a VS Code config's "inputs": a value the user types in when a server starts.
struct ConfigInput
{
    QString id;
    QString description;
    bool password = false; // VS Code's "password": true: ask without echoing
};

// Replaces the placeholders editors write in MCP configs:
//   ${env:NAME}        VS Code: the environment variable NAME
//   ${workspaceFolder} VS Code: the workspace folder (ServerConfigFile::workspaceFolderFor)
//   ${workspaceFolderBasename}, ${userHome}, ${pathSeparator} (also ${/}): VS Code
//   ${input:ID}        VS Code: asked of the user through the input provider
//   ${NAME}            Claude Code: the environment variable NAME
//   ${NAME:-default}   Claude Code: NAME, or default when NAME is unset or empty (as in sh)
// A placeholder that cannot be resolved (an unset variable without a default, an input with
// no provider, an unknown ${...:...} form) is an error naming it: a placeholder must never
// reach a process or a server literally. Substituted values are not scanned again, so a
// value that itself contains "${" stays as it is. Each input is asked for once per resolver
// and remembered, as VS Code does for one start.
// Not thread-safe; use one per config load, on the caller's thread (the input provider may
// show a dialog).
class PlaceholderResolver
{
public:
    // std::nullopt: the user declined to give the value (or nobody can ask).
    using InputProvider = std::function<std::optional<QString>(const ConfigInput &input)>;
    // std::nullopt: the variable is not set.
    using Environment = std::function<std::optional<QString>(const QString &name)>;

    PlaceholderResolver(); // the process environment, no workspace folder, no inputs

    void setEnvironment(Environment environment) { m_environment = std::move(environment); }
    void setWorkspaceFolder(const QString &folder) { m_workspaceFolder = folder; }
    void setInputs(const QMap<QString, ConfigInput> &inputs) { m_inputs = inputs; }
    // Without a provider (headless) every ${input:...} is an error.
    void setInputProvider(InputProvider provider) { m_inputProvider = std::move(provider); }

    // Returns `text` with every placeholder replaced, or sets *error (naming the first
    // placeholder that could not be resolved) and returns an empty string.
    QString resolve(const QString &text, Error *error);

    // Whether `text` holds anything resolve() would replace.
    static bool containsPlaceholder(const QString &text);

private:
    std::optional<QString> resolveOne(const QString &body, Error *error);

    Environment m_environment;
    QString m_workspaceFolder;
    QMap<QString, ConfigInput> m_inputs;
    InputProvider m_inputProvider;
    QHash<QString, QString> m_answers; // input id -> what the user typed
};

} // namespace Sonde

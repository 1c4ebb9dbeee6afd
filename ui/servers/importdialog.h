// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QDialog>
#include <QHash>
#include <QList>
#include <QMap>

#include <functional>
#include <optional>

class QCheckBox;

namespace Sonde {

// Shows every entry of an imported Claude Desktop / Cursor / VS Code / mcp.json file with
// the exact command it would run, and adds only the ones the user ticks. Thread: GUI.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    ImportDialog(const QMap<QString, ServerConfig> &servers, QWidget *parent = nullptr);
    QList<ServerConfig> chosen() const;

    // The ${input:...} values a configuration file asks for, each once, in the order it
    // asks (the GUI asks for them, with no nested event loop, before reading it for real).
    static QList<ConfigInput> inputsNeeded(const QString &path);
    // Reads an MCP configuration file with the given input values: its servers, or nothing
    // when the file could not be read. What was left out is said to `status`. The caller
    // lets the user choose among them (an ImportDialog opened with open()).
    static std::optional<QMap<QString, ServerConfig>>
    readFile(const QString &path, const QHash<QString, QString> &inputs,
             const std::function<void(const QString &)> &status);

private:
    QMap<QString, ServerConfig> m_servers;
    QList<QPair<QString, QCheckBox *>> m_checks;
};

} // namespace Sonde

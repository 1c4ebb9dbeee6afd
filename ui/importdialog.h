// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QDialog>
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

    // Reads an MCP configuration file, asking for its ${input:...} values: its servers, or
    // nothing when the file could not be read. What was left out is said to `status`. The
    // caller lets the user choose among them (an ImportDialog opened with open()).
    static std::optional<QMap<QString, ServerConfig>>
    readFile(QWidget *parent, const QString &path,
             const std::function<void(const QString &)> &status);

private:
    QMap<QString, ServerConfig> m_servers;
    QList<QPair<QString, QCheckBox *>> m_checks;
};

} // namespace Sonde

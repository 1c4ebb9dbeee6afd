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

    // Reads an MCP configuration file, asking for its ${input:...} values, and (with
    // `confirm`) lets the user choose among its servers: what to add, or nothing when the
    // file could not be read or the user cancelled. What was left out is said to `status`
    // (and, with `confirm`, in a message box).
    static std::optional<QList<ServerConfig>>
    importFile(QWidget *parent, const QString &path, bool confirm,
               const std::function<void(const QString &)> &status);

private:
    QMap<QString, ServerConfig> m_servers;
    QList<QPair<QString, QCheckBox *>> m_checks;
};

} // namespace Sonde

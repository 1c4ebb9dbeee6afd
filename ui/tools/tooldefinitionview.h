// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QPushButton;

namespace Sonde {

class JsonView;

// A tool's whole definition as the server listed it (inputSchema, outputSchema, annotations,
// title, icons, _meta and the rest), read-only and highlighted, with Copy. The Tools tab shows
// it beside the argument form's Form and JSON. Thread: GUI.
class ToolDefinitionView : public QWidget
{
    Q_OBJECT
public:
    explicit ToolDefinitionView(QWidget *parent = nullptr);
    // An empty object: no tool, nothing to copy.
    void setTool(const QJsonObject &tool);
    QString text() const { return m_text; }
    // What Copy puts on the clipboard, and the tool list's Copy definition too.
    static QString textOf(const QJsonObject &tool);

private:
    QString m_text;
    JsonView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_copy = nullptr;
};

} // namespace Sonde

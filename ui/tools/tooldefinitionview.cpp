// SPDX-License-Identifier: MIT
#include "tools/tooldefinitionview.h"

#include "window/jsonview.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

QString ToolDefinitionView::textOf(const QJsonObject &tool)
{
    return tool.isEmpty() ? QString()
                          : QString::fromUtf8(QJsonDocument(tool).toJson(QJsonDocument::Indented));
}

ToolDefinitionView::ToolDefinitionView(QWidget *parent) : QWidget(parent)
{
    m_view = new JsonView(this);
    m_view->setObjectName(u"toolDefinition"_s);
    m_view->setAccessibleName(tr("Tool definition"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(u"toolDefinitionSummary"_s);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_copy = new QPushButton(tr("Copy"), this);
    m_copy->setObjectName(u"copyToolDefinition"_s);
    m_copy->setAccessibleName(tr("Copy the tool definition"));
    m_copy->setToolTip(tr("Copy the tool's whole definition, as the server listed it, as JSON"));
    m_copy->setEnabled(false);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_text); });
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_copy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
}

void ToolDefinitionView::setTool(const QJsonObject &tool)
{
    const QString text = textOf(tool);
    if (text == m_text)
        return;
    m_text = text;
    m_view->setJson(text.toUtf8());
    m_copy->setEnabled(!text.isEmpty());
    // What a reader looks for first, so a missing outputSchema or _meta needs no scrolling.
    QStringList with, without;
    for (const auto key : {"inputSchema"_L1, "outputSchema"_L1, "annotations"_L1, "title"_L1,
                           "icons"_L1, "_meta"_L1})
        (tool.contains(key) ? with : without).append(key);
    QStringList parts;
    if (!with.isEmpty())
        parts.append(tr("with %1").arg(with.join(u", "_s)));
    if (!without.isEmpty())
        parts.append(tr("without %1").arg(without.join(u", "_s)));
    m_summary->setText(tool.isEmpty() ? QString()
                                      : tr("As the server listed it, %1").arg(parts.join(u"; "_s)));
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "tools/completionfield.h"

#include "tools/schemaformwidget.h"

#include <QListView>
#include <QPushButton>
#include <QStringListModel>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

CompletionField::CompletionField(SchemaFormWidget *form, const QString &buttonName,
                                 const QString &listName, QWidget *parent)
    : QWidget(parent), m_form(form)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_suggest = new QPushButton(tr("Suggest values"), this);
    m_suggest->setObjectName(buttonName);
    m_model = new QStringListModel(this);
    m_suggestions = new QListView(this);
    m_suggestions->setObjectName(listName);
    m_suggestions->setAccessibleName(tr("Suggested values"));
    m_suggestions->setToolTip(tr("Activate a suggestion to put it in the field"));
    m_suggestions->setModel(m_model);
    layout->addWidget(m_suggest, 0, Qt::AlignLeft);
    layout->addWidget(m_suggestions);
    connect(m_suggest, &QPushButton::clicked, this, &CompletionField::request);
    connect(m_suggestions, &QListView::activated, this, [this](const QModelIndex &i) {
        QJsonObject v = m_form->value();
        v.insert(m_argument, i.data().toString());
        m_form->setValue(v);
    });
}

void CompletionField::setToolTip(const QString &text)
{
    m_suggest->setToolTip(text);
}

void CompletionField::setListHeight(int pixels)
{
    m_suggestions->setMaximumHeight(pixels);
}

void CompletionField::setFallbackArgument(const QString &argument)
{
    m_fallback = argument;
}

void CompletionField::setAvailable(bool available)
{
    m_suggest->setEnabled(available);
    m_suggestions->setVisible(available);
}

bool CompletionField::isAvailable() const
{
    return m_suggest->isEnabled();
}

void CompletionField::clear()
{
    m_model->setStringList({});
}

void CompletionField::showCompletion(const QString &argument, const QStringList &values)
{
    if (argument == m_argument)
        m_model->setStringList(values);
}

void CompletionField::request()
{
    // The argument being edited is the focused field; without one, the fallback.
    QString argument;
    if (QWidget *focus = m_form->focusWidget();
        focus && focus->objectName().startsWith("field:"_L1))
        argument = focus->objectName().mid(6);
    if (argument.isEmpty())
        argument = m_fallback;
    if (argument.isEmpty())
        return;
    m_argument = argument;
    QJsonObject others = m_form->value();
    const QString value = others.take(argument).toString();
    Q_EMIT requested(argument, value, others);
}

} // namespace Sonde

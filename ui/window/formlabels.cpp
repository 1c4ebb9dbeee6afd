// SPDX-License-Identifier: MIT
#include "window/formlabels.h"

#include <QFormLayout>
#include <QLabel>
#include <QLayout>
#include <QWidget>

namespace Sonde::FormLabels {

void nameFields(QFormLayout *form)
{
    for (int row = 0; row < form->rowCount(); ++row) {
        const QLayoutItem *label = form->itemAt(row, QFormLayout::LabelRole);
        QLayoutItem *field = form->itemAt(row, QFormLayout::FieldRole);
        const auto *text = label ? qobject_cast<const QLabel *>(label->widget()) : nullptr;
        if (!text || !field)
            continue;
        QList<QWidget *> widgets;
        if (field->widget())
            widgets.append(field->widget());
        else if (QLayout *l = field->layout())
            for (int i = 0; i < l->count(); ++i)
                if (QWidget *w = l->itemAt(i)->widget())
                    widgets.append(w);
        const QString name = QString(text->text()).remove(u'&');
        for (QWidget *w : widgets)
            if (w->accessibleName().isEmpty())
                w->setAccessibleName(name);
    }
}

void fitHeight(QWidget *window)
{
    QLayout *layout = window->layout();
    if (!layout || !window->isVisible())
        return;
    layout->activate();
    const int need = layout->hasHeightForWidth() ? layout->totalHeightForWidth(window->width())
                                                 : layout->totalMinimumSize().height();
    if (need > window->height())
        window->resize(window->width(), need);
}

QLabel *note(const QString &text)
{
    auto *label = new QLabel(text);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    QFont small = label->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    label->setFont(small);
    return label;
}

} // namespace Sonde::FormLabels

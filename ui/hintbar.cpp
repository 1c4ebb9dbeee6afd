// SPDX-License-Identifier: MIT
#include "hintbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace Sonde {

HintBar::HintBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"firstRunHintBar"_s);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    m_text = new QLabel(this);
    m_text->setObjectName(u"firstRunHint"_s);
    m_text->setAccessibleName(tr("Hint"));
    m_text->setForegroundRole(QPalette::ToolTipText);
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    connect(m_text, &QLabel::linkActivated, this, &HintBar::linkActivated);
    auto *close = new QToolButton(this);
    close->setObjectName(u"firstRunHintClose"_s);
    close->setText(u"✕"_s);
    close->setAutoRaise(true);
    close->setAccessibleName(tr("Dismiss hint"));
    close->setToolTip(tr("Dismiss this hint"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    row->addWidget(m_text, 1);
    row->addWidget(close);
    hide();
}

void HintBar::showText(const QString &html, const QString &topic)
{
    m_text->setText(html);
    m_topic = topic;
    show();
}

void HintBar::dismiss(const QString &topic)
{
    if (m_topic == topic && !topic.isEmpty()) {
        m_topic.clear();
        hide();
    }
}

} // namespace Sonde

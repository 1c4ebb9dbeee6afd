// SPDX-License-Identifier: MIT
#include "window/hintbar.h"

#include <QEvent>
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

void HintBar::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // A link's colour is fixed when the rich text is parsed: parsed again, a link set before
    // the dark palette was applied (or taken away) takes the palette's link colour. (The
    // constructor changes the palette before m_text exists.)
    if (event->type() == QEvent::PaletteChange && m_text && !m_text->text().isEmpty()) {
        const QString html = m_text->text();
        m_text->clear();
        m_text->setText(html);
    }
}

void HintBar::dismiss(const QString &topic)
{
    if (m_topic == topic && !topic.isEmpty()) {
        m_topic.clear();
        hide();
    }
}

} // namespace Sonde

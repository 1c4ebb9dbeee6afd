// SPDX-License-Identifier: MIT
#include "servers/namevalueeditor.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

NameValueEditor::NameValueEditor(Options options, QWidget *parent)
    : QWidget(parent), m_options(std::move(options))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_rows = new QVBoxLayout;
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(2);
    layout->addLayout(m_rows);
    auto *add = new QPushButton(tr("Add %1").arg(m_options.noun), this);
    add->setObjectName(u"add"_s);
    connect(add, &QPushButton::clicked, this, &NameValueEditor::addRow);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(add);
    buttonRow->addStretch(1);
    layout->addLayout(buttonRow);
}

void NameValueEditor::setEntries(const QList<Entry> &entries)
{
    for (const Row &row : std::as_const(m_list))
        delete row.widget;
    m_list.clear();
    for (const Entry &e : entries)
        append(e);
    renumber();
}

QList<NameValueEditor::Entry> NameValueEditor::entries() const
{
    QList<Entry> out;
    for (const Row &row : m_list) {
        const QString name = row.name->text().trimmed();
        if (name.isEmpty())
            continue;
        Entry e{name, row.value->text(), row.secret->isChecked(), false};
        e.missing = row.missing && e.secret && e.value.isEmpty();
        out.append(e);
    }
    return out;
}

int NameValueEditor::rowCount() const
{
    return int(m_list.size());
}

void NameValueEditor::addRow()
{
    append({{}, {}, m_options.secretByDefault, false});
    renumber();
    m_list.last().name->setFocus();
    Q_EMIT changed();
}

void NameValueEditor::append(const Entry &entry)
{
    Row row;
    row.widget = new QWidget(this);
    row.widget->setObjectName(u"row"_s);
    auto *h = new QHBoxLayout(row.widget);
    h->setContentsMargins(0, 0, 0, 0);
    row.name = new QLineEdit(entry.name, row.widget);
    row.name->setObjectName(u"name"_s);
    row.name->setPlaceholderText(m_options.nameHint);
    row.value = new QLineEdit(entry.value, row.widget);
    row.value->setObjectName(u"value"_s);
    row.secret = new QCheckBox(tr("Secret"), row.widget);
    row.secret->setObjectName(u"secret"_s);
    row.secret->setChecked(entry.secret || entry.missing);
    row.missing = entry.missing;
    auto *remove = new QToolButton(row.widget);
    remove->setObjectName(u"remove"_s);
    remove->setText(u"✕"_s);
    remove->setAutoRaise(true);
    h->addWidget(row.name, 2);
    h->addWidget(row.value, 3);
    h->addWidget(row.secret);
    h->addWidget(remove);
    m_rows->addWidget(row.widget);
    m_list.append(row);
    QWidget *key = row.widget;
    const auto find = [this, key]() -> Row * {
        for (Row &r : m_list)
            if (r.widget == key)
                return &r;
        return nullptr;
    };
    connect(row.name, &QLineEdit::textChanged, this, [this, find] {
        if (Row *r = find())
            updateRow(*r);
        Q_EMIT changed();
    });
    connect(row.value, &QLineEdit::textChanged, this, [this, find] {
        if (Row *r = find()) {
            // Typed again: no longer missing.
            if (!r->value->text().isEmpty())
                r->missing = false;
            updateRow(*r);
        }
        Q_EMIT changed();
    });
    connect(row.secret, &QCheckBox::toggled, this, [this, find] {
        if (Row *r = find())
            updateRow(*r);
        Q_EMIT changed();
    });
    connect(remove, &QToolButton::clicked, this, [this, key] {
        m_list.removeIf([key](const Row &r) { return r.widget == key; });
        key->deleteLater();
        renumber();
        Q_EMIT changed();
    });
    updateRow(m_list.last());
}

void NameValueEditor::updateRow(Row &row)
{
    const bool always =
        m_options.alwaysSecret && m_options.alwaysSecret(row.name->text().trimmed());
    if (always && !row.secret->isChecked())
        row.secret->setChecked(true);
    row.secret->setEnabled(!always);
    row.secret->setToolTip(always ? tr("Always secret: its name says it holds a credential")
                                  : tr("Kept in the secret store, never in Sonde's settings, "
                                       "and masked here"));
    const bool secret = row.secret->isChecked();
    row.value->setEchoMode(secret ? QLineEdit::Password : QLineEdit::Normal);
    if (row.missing && row.value->text().isEmpty()) {
        row.value->setPlaceholderText(tr("not stored: enter it again"));
        row.value->setToolTip(tr("The secret store did not have this value (secrets kept for "
                                 "a session only are gone after a quit). Left empty, the "
                                 "server stays unconnected."));
    } else {
        row.value->setPlaceholderText(secret ? tr("secret value") : tr("value"));
        row.value->setToolTip({});
    }
}

void NameValueEditor::renumber()
{
    for (qsizetype i = 0; i < m_list.size(); ++i) {
        const Row &r = m_list.at(i);
        const QString n = QString::number(i + 1);
        r.name->setAccessibleName(tr("Name of %1 %2").arg(m_options.noun, n));
        r.value->setAccessibleName(tr("Value of %1 %2").arg(m_options.noun, n));
        r.secret->setAccessibleName(tr("%1 %2 is secret").arg(m_options.noun, n));
        r.widget->findChild<QToolButton *>(u"remove"_s)
            ->setAccessibleName(tr("Remove %1 %2").arg(m_options.noun, n));
    }
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "history/historysettingsdialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

HistorySettingsDialog::HistorySettingsDialog(const HistoryRetention &current, bool recorded,
                                             QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("History settings"));
    setObjectName(u"historySettingsDialog"_s);
    auto *keep = new QGroupBox(tr("Keep the recorded history"), this);
    auto *grid = new QGridLayout(keep);
    const auto radio = [keep](const QString &text, const char *name, const QString &spoken) {
        auto *b = new QRadioButton(text, keep);
        b->setObjectName(QLatin1StringView(name));
        b->setAccessibleName(spoken);
        return b;
    };
    const auto spin = [keep](const char *name, int max, const QString &suffix,
                             const QString &spoken) {
        auto *box = new QSpinBox(keep);
        box->setObjectName(QLatin1StringView(name));
        box->setRange(1, max);
        box->setSuffix(suffix);
        box->setAccessibleName(spoken);
        return box;
    };
    m_forever = radio(tr("Forever"), "historyKeepForever", tr("Keep forever"));
    m_byAge = radio(tr("For"), "historyKeepDays", tr("Keep for a number of days"));
    m_days = spin("historyDays", HistoryRetention::MaxDays, tr(" days"), tr("Days to keep"));
    m_bySize = radio(tr("Up to"), "historyKeepSize", tr("Keep up to a size"));
    m_mebibytes =
        spin("historyMiB", HistoryRetention::MaxMebibytes, tr(" MiB"), tr("Size to keep, in MiB"));
    grid->addWidget(m_forever, 0, 0, 1, 2);
    grid->addWidget(m_byAge, 1, 0);
    grid->addWidget(m_days, 1, 1);
    grid->addWidget(m_bySize, 2, 0);
    grid->addWidget(m_mebibytes, 2, 1);
    grid->setColumnStretch(2, 1);
    m_effect = new QLabel(keep);
    m_effect->setObjectName(u"historyRetentionEffect"_s);
    m_effect->setWordWrap(true);
    grid->addWidget(m_effect, 3, 0, 1, 3);

    auto *clear = new QPushButton(tr("Clear history…"), this);
    clear->setObjectName(u"historySettingsClear"_s);
    clear->setToolTip(tr("Delete everything recorded, for every server"));
    clear->setEnabled(recorded);
    m_status = new QLabel(this);
    m_status->setObjectName(u"historySettingsStatus"_s);
    m_status->setWordWrap(true);
    if (!recorded)
        m_status->setText(tr("History is not recorded in this window (--no-history)."));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(u"historySettingsOk"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &HistorySettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(clear, &QPushButton::clicked, this, &HistorySettingsDialog::clearRequested);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(keep);
    auto *row = new QHBoxLayout;
    row->addWidget(clear);
    row->addStretch();
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    m_days->setValue(current.days);
    m_mebibytes->setValue(current.mebibytes);
    (current.mode == HistoryRetention::Mode::Days   ? m_byAge
     : current.mode == HistoryRetention::Mode::Size ? m_bySize
                                                    : m_forever)
        ->setChecked(true);
    for (QRadioButton *b : {m_forever, m_byAge, m_bySize})
        connect(b, &QRadioButton::toggled, this, &HistorySettingsDialog::update);
    connect(m_days, &QSpinBox::valueChanged, this, &HistorySettingsDialog::update);
    connect(m_mebibytes, &QSpinBox::valueChanged, this, &HistorySettingsDialog::update);
    update();
}

HistoryRetention HistorySettingsDialog::retention() const
{
    HistoryRetention r;
    r.mode = m_byAge->isChecked()    ? HistoryRetention::Mode::Days
             : m_bySize->isChecked() ? HistoryRetention::Mode::Size
                                     : HistoryRetention::Mode::Forever;
    r.days = m_days->value();
    r.mebibytes = m_mebibytes->value();
    return r;
}

void HistorySettingsDialog::update()
{
    m_days->setEnabled(m_byAge->isChecked());
    m_mebibytes->setEnabled(m_bySize->isChecked());
    const HistoryRetention r = retention();
    m_effect->setText(
        r.mode == HistoryRetention::Mode::Forever
            ? tr("Nothing is deleted unless you clear the history.")
            : tr("Applied at once and then as events are recorded: %1.").arg(r.describe()));
}

void HistorySettingsDialog::accept()
{
    Q_EMIT retentionChosen(retention());
    QDialog::accept();
}

} // namespace Sonde

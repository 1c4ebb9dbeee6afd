// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/historyretention.h"

#include <QDialog>

class QLabel;
class QRadioButton;
class QSpinBox;

namespace Sonde {

// History settings: how long the recorded history is kept (forever, N days, up to N MiB)
// and Clear history, which is the History tab's (its question, then the catalog's clear):
// the button asks for it with clearRequested(). OK emits retentionChosen(); the window stores
// it and hands it to the recorder, which applies it at once. Opened with open(). Thread: GUI.
class HistorySettingsDialog : public QDialog
{
    Q_OBJECT
public:
    // `recorded` false: nothing is recorded in this window (--no-history), and Clear is off.
    HistorySettingsDialog(const HistoryRetention &current, bool recorded,
                          QWidget *parent = nullptr);
    HistoryRetention retention() const;
    void accept() override;

Q_SIGNALS:
    void retentionChosen(const Sonde::HistoryRetention &retention);
    void clearRequested();

private:
    void update();

    QRadioButton *m_forever;
    QRadioButton *m_byAge;
    QRadioButton *m_bySize;
    QSpinBox *m_days;
    QSpinBox *m_mebibytes;
    QLabel *m_effect;
    QLabel *m_status;
};

} // namespace Sonde

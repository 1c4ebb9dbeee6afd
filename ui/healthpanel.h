// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"
#include "transport/fault.h"

#include <QDateTime>
#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;

namespace Sonde {

class HistoryModel;

// A server's health: the circuit breaker drawn as its state (closed / open with a live
// countdown / half-open), strikes against the threshold, Reset and Trip; the reconnect
// history as a table; one control per fault kind, each disabled where the transport does
// not allow it. Thread: GUI. It asks; the window calls the core.
class HealthPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HealthPanel(QWidget *parent = nullptr);
    void setSnapshot(const SessionSnapshot &snapshot);
    QString breakerText() const;
    HistoryModel *historyModel() const { return m_history; }

Q_SIGNALS:
    void breakerActionRequested(const QString &action);
    void faultRequested(const Sonde::Fault &fault);

private:
    void updateCountdown();

    QLabel *m_breaker = nullptr;
    QLabel *m_strikes = nullptr;
    QLabel *m_reconnect = nullptr;
    HistoryModel *m_history = nullptr;
    QTableView *m_table = nullptr;
    QList<QPair<QPushButton *, Fault::Kind>> m_faultButtons;
    QSpinBox *m_delayMs = nullptr;
    QSpinBox *m_status = nullptr;
    QTimer *m_countdown = nullptr;
    QDateTime m_openUntil;
    BreakerPhase m_state = BreakerPhase::Closed;
};

} // namespace Sonde

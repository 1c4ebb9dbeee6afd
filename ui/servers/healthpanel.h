// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"
#include "transport/fault.h"
#include "values/recoveryvalues.h"

#include <QDateTime>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QTimer;

namespace Sonde {

class HistoryModel;
class ProxyFaultPanel;

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
    // The faults armed for a request still to come, and those a closed connection dropped.
    QString armedText() const;
    HistoryModel *historyModel() const { return m_history; }
    // Reset, Trip and one button per fault, in the panel's order: the window's Faults menu
    // mirrors them (same text, same click, enabled when they are).
    // Each named for its action: "breaker:reset", "fault:expire-session"...
    QList<QPair<QString, QPushButton *>> actionButtons() const;
    // A proxied session (docs/proxy.md) has no breaker or reconnects of Sonde's: the panel
    // shows the proxy's faults and the verdicts instead (`http`: its transport), or the
    // engine's again (nothing).
    void setProxied(std::optional<bool> http);
    ProxyFaultPanel *proxyFaults() const { return m_proxyFaults; }

Q_SIGNALS:
    void breakerActionRequested(Sonde::BreakerAction action);
    void faultRequested(const Sonde::Fault &fault);

private:
    void updateCountdown();
    void updateMenuTexts();
    // The engine's fault buttons, Reset and Trip: off on a proxied session, otherwise as the
    // last snapshot's route and era allow.
    void enableEngineControls();

    QLabel *m_breaker = nullptr;
    QLabel *m_strikes = nullptr;
    QLabel *m_reconnect = nullptr;
    QLabel *m_armed = nullptr;
    HistoryModel *m_history = nullptr;
    QTableView *m_table = nullptr;
    QList<QPair<QPushButton *, Fault::Kind>> m_faultButtons;
    QPushButton *m_reset = nullptr;
    QPushButton *m_trip = nullptr;
    QSpinBox *m_delayMs = nullptr;
    QSpinBox *m_status = nullptr;
    QTimer *m_countdown = nullptr;
    ProxyFaultPanel *m_proxyFaults = nullptr;
    QStackedWidget *m_pages = nullptr; // the engine's page, or the proxy's
    bool m_proxied = false;
    Fault::Target m_target; // the last snapshot's, for the engine's fault buttons
    QDateTime m_openUntil;
    BreakerPhase m_state = BreakerPhase::Closed;
};

} // namespace Sonde

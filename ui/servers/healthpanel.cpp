// SPDX-License-Identifier: MIT
#include "servers/healthpanel.h"

#include "application/history/historymodel.h"
#include "servers/proxyfaultpanel.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

HealthPanel::HealthPanel(QWidget *parent) : QWidget(parent)
{
    // Two pages: the engine's breaker, reconnects and faults, and a proxied session's faults
    // and verdicts (setProxied).
    auto *top = new QVBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    m_pages = new QStackedWidget(this);
    top->addWidget(m_pages);
    auto *enginePage = new QWidget(m_pages);
    auto *outer = new QVBoxLayout(enginePage);
    auto *breakerBox = new QGroupBox(tr("Circuit breaker"), this);
    auto *breakerLayout = new QHBoxLayout(breakerBox);
    m_breaker = new QLabel(breakerBox);
    m_breaker->setObjectName(u"breakerState"_s);
    m_breaker->setAccessibleName(tr("Circuit breaker state"));
    QFont big = m_breaker->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_breaker->setFont(big);
    m_strikes = new QLabel(breakerBox);
    m_strikes->setObjectName(u"breakerStrikes"_s);
    m_strikes->setAccessibleName(tr("Breaker strikes"));
    auto *reset = m_reset = new QPushButton(tr("Reset breaker"), breakerBox);
    reset->setObjectName(u"breakerReset"_s);
    reset->setAccessibleName(tr("Reset breaker"));
    reset->setToolTip(tr("Close the circuit breaker: calls are sent again"));
    auto *trip = m_trip = new QPushButton(tr("Trip breaker"), breakerBox);
    trip->setObjectName(u"breakerTrip"_s);
    trip->setAccessibleName(tr("Trip breaker"));
    trip->setToolTip(tr("Open the circuit breaker by hand: calls are refused unsent"));
    breakerLayout->addWidget(m_breaker);
    breakerLayout->addWidget(m_strikes, 1);
    breakerLayout->addWidget(reset);
    breakerLayout->addWidget(trip);
    connect(reset, &QPushButton::clicked, this,
            [this] { Q_EMIT breakerActionRequested(BreakerAction::Reset); });
    connect(trip, &QPushButton::clicked, this,
            [this] { Q_EMIT breakerActionRequested(BreakerAction::Trip); });
    outer->addWidget(breakerBox);

    m_reconnect = new QLabel(this);
    m_reconnect->setObjectName(u"reconnectState"_s);
    m_reconnect->setAccessibleName(tr("Reconnect state"));
    outer->addWidget(m_reconnect);

    auto *faults = new QGroupBox(tr("Inject a fault"), this);
    auto *grid = new QGridLayout(faults);
    m_delayMs = new QSpinBox(faults);
    m_delayMs->setObjectName(u"faultDelayMs"_s);
    m_delayMs->setRange(0, 600'000);
    m_delayMs->setValue(2000);
    m_delayMs->setSuffix(u" ms"_s);
    m_delayMs->setAccessibleName(tr("Delay for each answer"));
    m_delayMs->setToolTip(tr("How long Delay answers holds each answer"));
    m_status = new QSpinBox(faults);
    m_status->setObjectName(u"faultStatus"_s);
    m_status->setRange(100, 599);
    m_status->setValue(404);
    m_status->setAccessibleName(tr("HTTP status to answer"));
    m_status->setToolTip(tr("The status Answer HTTP status fakes"));
    int row = 0, col = 0;
    for (const Fault::Info &s : Fault::all()) {
        auto *b = new QPushButton(s.label, faults);
        b->setObjectName(u"fault:"_s + s.name);
        b->setToolTip(s.description);
        b->setAccessibleName(s.label);
        const Fault::Kind kind = s.kind;
        connect(b, &QPushButton::clicked, this, [this, kind] {
            Fault f;
            f.kind = kind;
            f.ms = m_delayMs->value();
            f.status = m_status->value();
            Q_EMIT faultRequested(f);
        });
        m_faultButtons.append({b, kind});
        if (s.kind == Fault::Kind::Delay) {
            auto *w = new QWidget(faults);
            auto *h = new QHBoxLayout(w);
            h->setContentsMargins(0, 0, 0, 0);
            h->addWidget(b);
            h->addWidget(m_delayMs);
            grid->addWidget(w, row, col);
        } else if (s.kind == Fault::Kind::HttpStatus) {
            auto *w = new QWidget(faults);
            auto *h = new QHBoxLayout(w);
            h->setContentsMargins(0, 0, 0, 0);
            h->addWidget(b);
            h->addWidget(m_status);
            grid->addWidget(w, row, col);
        } else {
            grid->addWidget(b, row, col);
        }
        if (++col == 3) {
            col = 0;
            ++row;
        }
    }
    // What is armed waits for a request; a delay stays until cleared: said, not guessed.
    m_armed = new QLabel(this);
    m_armed->setObjectName(u"armedFaults"_s);
    m_armed->setAccessibleName(tr("Armed faults"));
    m_armed->setWordWrap(true);
    m_armed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(faults);
    outer->addWidget(m_armed);
    // The Faults menu mirrors the buttons; its entries say the parameter they will use.
    connect(m_delayMs, &QSpinBox::valueChanged, this, &HealthPanel::updateMenuTexts);
    connect(m_status, &QSpinBox::valueChanged, this, &HealthPanel::updateMenuTexts);
    updateMenuTexts();

    m_history = new HistoryModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(u"historyTable"_s);
    m_table->setAccessibleName(tr("Reconnect history"));
    m_table->setModel(m_history);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(HistoryModel::What, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    outer->addWidget(new QLabel(tr("History"), this));
    outer->addWidget(m_table, 1);
    // The engine's page first, also among the children: what looks for the panel's
    // controls (a test's findChild) finds the engine's.
    m_pages->addWidget(enginePage);
    m_proxyFaults = new ProxyFaultPanel(m_pages);
    m_pages->addWidget(m_proxyFaults);

    m_countdown = new QTimer(this);
    m_countdown->setInterval(250);
    connect(m_countdown, &QTimer::timeout, this, &HealthPanel::updateCountdown);
}

void HealthPanel::setSnapshot(const SessionSnapshot &s)
{
    static const RecoveryState none;
    const RecoveryState &recovery = s.recovery ? *s.recovery : none;
    const BreakerState &breaker = recovery.breaker;
    m_state = breaker.phase;
    m_openUntil = m_state == BreakerPhase::Open
                      ? QDateTime::currentDateTime().addSecs(breaker.retryInS)
                      : QDateTime();
    m_strikes->setText(tr("%1 of %2 strikes · cooldown %3 s%4")
                           .arg(breaker.strikes)
                           .arg(breaker.threshold)
                           .arg(breaker.cooldownS)
                           .arg(breaker.probeInFlight ? tr(" · probe in flight") : QString()));
    updateCountdown();
    if (m_state == BreakerPhase::Open)
        m_countdown->start();
    else
        m_countdown->stop();

    const ReconnectState &reconnect = recovery.reconnect;
    QString r = tr("Generation %1").arg(s.generation);
    if (reconnect.inProgress)
        r += tr(" · reconnecting");
    if (reconnect.parked)
        r += reconnect.nextAttemptInMs >= 0
                 ? tr(" · parked (next probe in %1 s; reconnect by hand any time)")
                       .arg((reconnect.nextAttemptInMs + 999) / 1000)
                 : tr(" · parked (reconnect by hand any time)");
    else if (reconnect.failedAttempts > 0)
        r += tr(" · %1 failed attempts").arg(reconnect.failedAttempts);
    m_reconnect->setText(r);
    m_history->setHistory(recovery.history);
    m_table->scrollToBottom();

    QStringList armed;
    if (!s.armedFaults.isEmpty())
        armed.append(tr("Armed: %1.").arg(s.armedFaults.join(u"; "_s)));
    if (!s.droppedFaults.isEmpty())
        armed.append(tr("Dropped before they applied, with the connection that held them: %1.")
                         .arg(s.droppedFaults.join(u"; "_s)));
    m_armed->setText(armed.isEmpty() ? tr("No fault armed.") : armed.join(u' '));

    m_target = Fault::Target();
    m_target.http = s.route != ServerConfig::Route::Stdio;
    m_target.streamableHttp = s.route == ServerConfig::Route::StreamableHttp;
    // 2026-07-28 has no session to expire or whose id could be corrupted.
    m_target.sessions = !s.sessionless;
    m_target.listening = s.subscriptions && s.subscriptions->id.isDouble();
    enableEngineControls();
}

void HealthPanel::enableEngineControls()
{
    for (const auto &[button, kind] : std::as_const(m_faultButtons))
        button->setEnabled(!m_proxied && Fault::appliesTo(kind, m_target));
    m_reset->setEnabled(!m_proxied);
    m_trip->setEnabled(!m_proxied);
}

void HealthPanel::setProxied(std::optional<bool> http)
{
    m_proxied = http.has_value();
    m_pages->setCurrentWidget(m_proxied ? static_cast<QWidget *>(m_proxyFaults)
                                        : m_pages->widget(0));
    m_proxyFaults->setTransport(http);
    // Back to a server of Sonde's own: its buttons as its last snapshot allowed.
    enableEngineControls();
}

void HealthPanel::updateCountdown()
{
    QString text;
    QString color;
    if (m_state == BreakerPhase::Open) {
        const qint64 left = std::max<qint64>(0, QDateTime::currentDateTime().secsTo(m_openUntil));
        text = tr("OPEN · %1 s").arg(std::max<qint64>(1, left));
        color = u"#c62828"_s;
    } else if (m_state == BreakerPhase::HalfOpen) {
        text = tr("HALF-OPEN");
        color = u"#f9a825"_s;
    } else {
        text = tr("CLOSED");
        color = u"#2e7d32"_s;
    }
    m_breaker->setText(text);
    m_breaker->setStyleSheet(u"color:%1"_s.arg(color));
}

QList<QPair<QString, QPushButton *>> HealthPanel::actionButtons() const
{
    QList<QPair<QString, QPushButton *>> out{{u"breaker:reset"_s, m_reset},
                                             {u"breaker:trip"_s, m_trip}};
    for (const auto &[button, kind] : m_faultButtons)
        out.append({button->objectName(), button});
    out += m_proxyFaults->actionButtons();
    return out;
}

QString HealthPanel::breakerText() const
{
    return m_breaker->text();
}

QString HealthPanel::armedText() const
{
    return m_armed->text();
}

void HealthPanel::updateMenuTexts()
{
    for (const auto &[button, kind] : std::as_const(m_faultButtons)) {
        QString text = button->text();
        if (kind == Fault::Kind::Delay)
            text = tr("%1 (%2 ms each, until cleared)").arg(button->text()).arg(m_delayMs->value());
        else if (kind == Fault::Kind::HttpStatus)
            text = tr("%1 (%2, next request)").arg(button->text()).arg(m_status->value());
        button->setProperty("menuText", text);
    }
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "application/servers/proxiedsessions.h"
#include "proxy/proxyfault.h"

#include <QGroupBox>
#include <QList>
#include <QPair>

#include <optional>

class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Sonde {

// The Health tab of a proxied session (docs/proxy.md): one button per fault the proxy can
// inject into the client's live session (those of its transport enabled), the values they
// use, and the verdicts on how the client recovered, newest last. Thread: GUI. It asks; the
// window sends the fault to the proxy.
class ProxyFaultPanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit ProxyFaultPanel(QWidget *parent = nullptr);
    // The row's transport (true: HTTP), or nothing for a row that is not a live proxied
    // session: every button off.
    void setTransport(std::optional<bool> http);
    void setVerdicts(const QList<ProxiedVerdict> &verdicts);
    // One per kind, named "proxyFault:KIND": the Faults menu mirrors them.
    QList<QPair<QString, QPushButton *>> actionButtons() const;
    QTreeWidget *verdictList() const { return m_verdicts; }
    // The label a kind has on its button and in the menu.
    static QString label(ProxyFault::Kind kind);

Q_SIGNALS:
    void faultRequested(const Sonde::ProxyFault &fault);

private:
    QList<QPair<QPushButton *, ProxyFault::Kind>> m_buttons;
    QSpinBox *m_ms = nullptr;
    QSpinBox *m_status = nullptr;
    QSpinBox *m_count = nullptr;
    QTreeWidget *m_verdicts = nullptr;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "servers/proxyfaultpanel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

QString ProxyFaultPanel::label(ProxyFault::Kind kind)
{
    using K = ProxyFault::Kind;
    switch (kind) {
    case K::ExpireSession:
        return tr("Expire the client's session");
    case K::DropConnection:
        return tr("Drop the connection after the write");
    case K::CutStream:
        return tr("Cut the SSE stream mid-event");
    case K::Status:
        return tr("Answer an HTTP status");
    case K::LoseResume:
        return tr("Lose the stream's resumption");
    case K::KillServer:
        return tr("Kill the server");
    case K::DropResponse:
        return tr("Drop the next answer");
    case K::CorruptResponse:
        return tr("Corrupt the next answer");
    case K::Delay:
        return tr("Delay the next answers");
    case K::Notify:
        return tr("Send tools/list_changed");
    case K::Clear:
        return tr("Clear waiting faults");
    }
    return {};
}

ProxyFaultPanel::ProxyFaultPanel(QWidget *parent)
    : QGroupBox(tr("Faults into the client's live session (through sonde-cli proxy)"), parent)
{
    setObjectName(u"proxyFaults"_s);
    auto *outer = new QVBoxLayout(this);
    auto *values = new QHBoxLayout;
    auto spin = [this, values](const QString &text, int low, int high, int value,
                               const QString &suffix) {
        auto *s = new QSpinBox(this);
        s->setRange(low, high);
        s->setValue(value);
        s->setSuffix(suffix);
        s->setAccessibleName(text);
        values->addWidget(new QLabel(text, this));
        values->addWidget(s);
        return s;
    };
    m_ms = spin(tr("Delay"), 0, 3'600'000, 2000, u" ms"_s);
    m_status = spin(tr("Status"), 400, 599, 503, QString());
    m_count = spin(tr("Messages"), 1, 1000, 1, QString());
    m_count->setToolTip(tr("How many messages a fault acts on before it is spent"));
    values->addStretch(1);
    outer->addLayout(values);
    auto *grid = new QGridLayout;
    int i = 0;
    for (const ProxyFault::Info &info : ProxyFault::all()) {
        auto *b = new QPushButton(label(info.kind), this);
        b->setObjectName(u"proxyFault:"_s + info.name);
        b->setToolTip(info.description);
        b->setAccessibleName(label(info.kind));
        b->setEnabled(false);
        const ProxyFault::Kind kind = info.kind;
        connect(b, &QPushButton::clicked, this, [this, kind] {
            ProxyFault f;
            f.kind = kind;
            f.count = m_count->value();
            f.ms = m_ms->value();
            f.status = m_status->value();
            if (kind == ProxyFault::Kind::Status && (f.status == 429 || f.status == 503))
                f.retryAfterS = 1;
            if (kind == ProxyFault::Kind::Notify)
                f.method = u"notifications/tools/list_changed"_s;
            Q_EMIT faultRequested(f);
        });
        m_buttons.append({b, kind});
        grid->addWidget(b, i / 3, i % 3);
        ++i;
    }
    outer->addLayout(grid);
    outer->addWidget(new QLabel(tr("Verdicts on the client's recovery (docs/recovery.md)"), this));
    m_verdicts = new QTreeWidget(this);
    m_verdicts->setObjectName(u"proxyVerdicts"_s);
    m_verdicts->setAccessibleName(tr("Verdicts on the client's recovery"));
    m_verdicts->setRootIsDecorated(false);
    m_verdicts->setHeaderLabels({tr("#"), tr("Fault"), tr("Verdict"), tr("What the client did")});
    m_verdicts->header()->setStretchLastSection(true);
    m_verdicts->setWordWrap(true);
    outer->addWidget(m_verdicts, 1);
}

void ProxyFaultPanel::setTransport(std::optional<bool> http)
{
    for (const auto &[button, kind] : std::as_const(m_buttons)) {
        const ProxyFault::Info &info = ProxyFault::info(kind);
        button->setEnabled(http && (*http ? info.http : info.stdio));
    }
    m_status->setEnabled(http && *http);
}

void ProxyFaultPanel::setVerdicts(const QList<ProxiedVerdict> &verdicts)
{
    m_verdicts->clear();
    for (const ProxiedVerdict &v : verdicts) {
        auto *item = new QTreeWidgetItem(
            m_verdicts, {QString::number(v.id), v.kind, v.state.toUpper(), v.summary});
        item->setToolTip(3, v.summary);
        if (v.state == "fail"_L1)
            item->setForeground(2, QColor(u"#c62828"_s));
        else if (v.state == "pass"_L1)
            item->setForeground(2, QColor(u"#2e7d32"_s));
    }
    if (m_verdicts->topLevelItemCount() > 0)
        m_verdicts->scrollToItem(m_verdicts->topLevelItem(m_verdicts->topLevelItemCount() - 1));
    for (int c = 0; c < 3; ++c)
        m_verdicts->resizeColumnToContents(c);
}

QList<QPair<QString, QPushButton *>> ProxyFaultPanel::actionButtons() const
{
    QList<QPair<QString, QPushButton *>> out;
    for (const auto &[button, kind] : m_buttons)
        out.append({button->objectName(), button});
    return out;
}

} // namespace Sonde

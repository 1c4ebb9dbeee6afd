// SPDX-License-Identifier: MIT
#include "servers/breakerbanner.h"

#include "application/servers/serverlistmodel.h"

using namespace Qt::StringLiterals;

namespace Sonde {

BreakerBanner::BreakerBanner(QWidget *parent) : QLabel(parent)
{
    setObjectName(u"breakerBanner"_s);
    setAccessibleName(tr("Circuit breaker"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The Health tab's colours for open and half-open, as a strip that is hard to miss.
    setStyleSheet(u"QLabel { background: #fdecea; color: #8e1b12; border: 1px solid #c62828;"
                  " border-radius: 3px; padding: 4px; }"_s);
    hide();
}

QString BreakerBanner::describe(const BreakerState &s)
{
    switch (s.phase) {
    case BreakerPhase::Open: {
        return tr("Circuit breaker open, %1: calls are not sent. It lets a probe call in %2 s "
                  "(Health → Reset closes it now).")
            .arg(ServerListModel::breakerCause(s))
            .arg(std::max<qint64>(1, s.retryInS));
    }
    case BreakerPhase::HalfOpen:
        return s.probeInFlight
                   ? tr("Circuit breaker half-open: its probe call is running; other calls "
                        "are not sent until it answers.")
                   : tr("Circuit breaker half-open: the next call is sent as the probe; a "
                        "failure opens it again.");
    case BreakerPhase::Closed:
        break;
    }
    return {};
}

void BreakerBanner::setState(const BreakerState &state)
{
    const QString t = describe(state);
    setText(t);
    setVisible(!t.isEmpty());
}

} // namespace Sonde

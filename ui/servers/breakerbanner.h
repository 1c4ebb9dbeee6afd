// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QLabel>

namespace Sonde {

// A banner over a server's tools while its circuit breaker refuses calls: why it opened, in
// the words of the refusal ("tripped by hand (user)", "after 3 consecutive failures"), and
// when it lets a probe call through; half-open, that the next call is the probe. Hidden while
// the breaker is closed. Thread: GUI.
class BreakerBanner : public QLabel
{
    Q_OBJECT
public:
    explicit BreakerBanner(QWidget *parent = nullptr);
    void setState(const BreakerState &state);
    // What the banner says for `state`; empty when closed.
    static QString describe(const BreakerState &state);
};

} // namespace Sonde

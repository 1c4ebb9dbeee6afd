// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace Sonde {

// A duration as a person reads it, the same wherever Sonde shows one (the timeline, the
// sign-in steps, a session's cache and listen times): "850 ms", "1.5 s", "30 s", "2 min",
// "2 min 5 s". Whole seconds and minutes carry no fraction.
QString durationText(qint64 ms);

} // namespace Sonde

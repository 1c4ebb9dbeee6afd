// SPDX-License-Identifier: MIT
#include "util/durationtext.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return QString::number(ms) + " ms"_L1;
    if (ms < 60'000)
        return (ms % 1000 == 0 ? QString::number(ms / 1000)
                               : QString::number(double(ms) / 1000.0, 'f', 1)) +
               " s"_L1;
    const qint64 seconds = (ms % 60'000) / 1000;
    return QString::number(ms / 60'000) + " min"_L1 +
           (seconds == 0 ? QString() : u' ' + QString::number(seconds) + " s"_L1);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "protocol/limits.h"

using namespace Qt::StringLiterals;

namespace Sonde::Limits {

QString describeBytes(qsizetype bytes)
{
    constexpr qsizetype KiB = 1024;
    constexpr qsizetype MiB = 1024 * KiB;
    if (bytes >= MiB && bytes % MiB == 0)
        return u"%1 MiB"_s.arg(bytes / MiB);
    if (bytes >= KiB && bytes % KiB == 0)
        return u"%1 KiB"_s.arg(bytes / KiB);
    return bytes == 1 ? u"1 byte"_s : u"%1 bytes"_s.arg(bytes);
}

QString oversizedMessage(int count, const QString &oneThing, const QString &things, qsizetype limit)
{
    if (count <= 0)
        return {};
    if (count == 1)
        return u"%1 is over the %2 frame limit; dropped"_s.arg(oneThing, describeBytes(limit));
    return u"%1 %2 were over the %3 frame limit; dropped"_s.arg(QString::number(count), things,
                                                                describeBytes(limit));
}

} // namespace Sonde::Limits

// SPDX-License-Identifier: MIT
#include "application/history/historyretention.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
const char *const ModeNames[] = {"forever", "days", "size"};
} // namespace

RetentionPolicy HistoryRetention::policy() const
{
    RetentionPolicy p;
    if (mode == Mode::Days)
        p.maxAgeMs = qint64(qBound(1, days, MaxDays)) * 24 * 60 * 60 * 1000;
    else if (mode == Mode::Size)
        p.maxBytes = qint64(qBound(1, mebibytes, MaxMebibytes)) * 1024 * 1024;
    return p;
}

QString HistoryRetention::describe() const
{
    switch (mode) {
    case Mode::Forever:
        break;
    case Mode::Days:
        return u"events older than %1 days are deleted"_s.arg(days);
    case Mode::Size:
        return u"the oldest events are deleted past %1 MiB"_s.arg(mebibytes);
    }
    return u"everything is kept"_s;
}

QString HistoryRetention::modeName(Mode mode)
{
    return QString::fromLatin1(ModeNames[int(mode)]);
}

std::optional<HistoryRetention::Mode> HistoryRetention::modeFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(ModeNames)); ++i)
        if (name == QLatin1StringView(ModeNames[i]))
            return Mode(i);
    return std::nullopt;
}

} // namespace Sonde

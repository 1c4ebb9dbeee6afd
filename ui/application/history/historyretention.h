// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace Sonde {

// How long the window keeps its recorded history, as the user chose it in the History
// settings dialog: forever, for a number of days, or up to a number of MiB of records. Kept in
// the workspace settings (WorkspaceSettings::saveRetention; not a secret) and handed to the
// recorder as a RetentionPolicy. A value.
struct HistoryRetention
{
    enum class Mode
    {
        Forever,
        Days,
        Size
    };
    static constexpr int MaxDays = 36'500;
    static constexpr int MaxMebibytes = 1'048'576; // 1 TiB

    Mode mode = Mode::Forever;
    int days = 30;
    int mebibytes = 1024;

    RetentionPolicy policy() const;
    // "kept forever", "kept for 7 days", "up to 100 MiB kept".
    QString describe() const;
    static QString modeName(Mode mode);
    static std::optional<Mode> modeFromName(const QString &name);
    bool operator==(const HistoryRetention &) const = default;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::HistoryRetention)

// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace Sonde {

// `sonde-cli history import|search|export`: the recorded history without a server. Output
// goes to stdout (JSON), complaints to stderr; exit 0, 1 (the store refused), 2 (usage).
class HistoryCommand
{
public:
    static int run(const QStringList &args);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QSqlDatabase;

namespace Sonde {

// The history database's tables, at a version kept in PRAGMA user_version, and the steps from
// each older version to this one (docs/history.md). Version 1 is the first release's; version
// 2 fills the full-text index per batch instead of per row. A file of a newer version than
// this build knows is refused, never rewritten.
class HistorySchema
{
public:
    static constexpr int Version = 2;
    // Brings `db` to Version in one transaction; false with the reason.
    static bool migrate(QSqlDatabase &db, QString *error);
    // Whether this SQLite was built with FTS5 (PRAGMA compile_options): the search is FTS5's
    // when it is, a LIKE scan over the records otherwise (docs/history.md).
    static bool hasFts5(QSqlDatabase &db);
};

} // namespace Sonde

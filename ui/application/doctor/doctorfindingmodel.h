// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QList>
#include <QString>

namespace Sonde {

class DoctorFindingStore;

// One server's doctor findings as a tree: three top-level rows, Errors, Warnings and
// Information, each with its count, always there (an empty group says the server broke
// nothing of that weight), and under each the findings in the order they came. Columns: the
// check's title, its id, and where it came from (the live session, or the last Run). It
// follows the store: a new finding is inserted under its group, a new run's reset is a
// reset. Thread: GUI.
class DoctorFindingModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        Finding,
        Check,
        From,
        ColumnCount
    };
    enum Role
    {
        FindingRole = Qt::UserRole + 1, // a DoctorFinding (findings only)
        SeverityRole,                   // int(DoctorSeverity), groups and findings
        LiveRole,                       // bool: from the session, not a run
        TranscriptIndexRole,            // the evidence's transcript index, -1 when none
        IsGroupRole,
    };

    explicit DoctorFindingModel(const DoctorFindingStore *store, QObject *parent = nullptr);

    void setServer(const QString &server);
    QString server() const { return m_server; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The group's row (its index in the tree's top level).
    QModelIndex groupIndex(DoctorSeverity severity) const;
    // The finding at `index`, or null for a group or an invalid index.
    const DoctorFinding *findingAt(const QModelIndex &index) const;
    // A severity's colour, beside its text (never instead of it); 3:1 against both palettes.
    static QColor severityColor(DoctorSeverity severity);
    // "Errors", "Warnings", "Information".
    static QString groupTitle(DoctorSeverity severity);
    // "1 error", "2 warnings", "3 info" (as sonde-cli doctor's summary counts them).
    static QString countText(DoctorSeverity severity, int count);
    // The check's title, or its id when the catalog does not know it.
    static QString checkTitle(const QString &checkId);

private:
    // A group's index carries GroupId; a finding's, its group's row plus one.
    static constexpr quintptr GroupId = 0;
    static constexpr int GroupCount = 3;

    void onAdded(const QString &server, int first, int last);
    void rebuild();

    const DoctorFindingStore *m_store;
    QString m_server;
    QList<int> m_rows[GroupCount]; // by DoctorSeverity: the finding's position in the store's list
};

} // namespace Sonde

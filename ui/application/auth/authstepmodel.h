// SPDX-License-Identifier: MIT
#pragma once

#include "values/authvalues.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QList>

namespace Sonde {

// The last authorization flow of one server as a table, one row per AuthStep in the order
// the engine recorded them: the step in words (marked ✓ or ✗, so a failure is not told by
// colour alone), the request (method and URL), the HTTP status, the time it took, and the
// result: the value chosen and why, or for a failed step the error in words (one column, as
// a step that failed chose nothing; the tooltip has all three). Fed with AuthState::steps; a
// list that continues the shown one appends rows, anything else starts over. Thread: GUI.
class AuthStepModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Step,
        Request,
        Status,
        Time,
        Result, // ok: "chosen — why"; failed: the error
        ColumnCount
    };
    enum Role
    {
        NameRole = Qt::UserRole + 1, // the step's name as the engine gives it ("token")
        FailedRole,                  // bool
        ChosenRole,
        WhyRole,
        ErrorRole,
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setSteps(const QList<AuthStep> &steps);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "token-endpoint" → "Token endpoint"; the known steps get their own words.
    static QString stepTitle(const QString &name);
    // A failed step's error: 3:1 or more against both the light and the dark palette's bases.
    static QColor errorColor();

private:
    QList<AuthStep> m_steps;
};

} // namespace Sonde

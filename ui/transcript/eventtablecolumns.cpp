// SPDX-License-Identifier: MIT
#include "transcript/eventtablecolumns.h"

#include "application/transcript/transcriptmodel.h"

#include <QHeaderView>
#include <QTableView>

using namespace Qt::StringLiterals;

namespace Sonde {

void sizeEventColumns(QTableView *table)
{
    using M = TranscriptModel;
    QHeaderView *header = table->horizontalHeader();
    const QFontMetrics fm = header->fontMetrics();
    const QAbstractItemModel *model = table->model();
    // The wider of the header's word and the typical value, with the cell's margins.
    const auto width = [&](int column, const QString &typical) {
        const QString word = model->headerData(column, Qt::Horizontal).toString();
        return std::max(fm.horizontalAdvance(word), fm.horizontalAdvance(typical)) + 16;
    };
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setMinimumSectionSize(fm.horizontalAdvance(u"000"_s) + 8);
    table->setColumnWidth(M::TimeColumn, width(M::TimeColumn, u"00:00:00.000"_s));
    table->setColumnWidth(M::ServerColumn, width(M::ServerColumn, u"demo-http"_s));
    table->setColumnWidth(M::GenerationColumn, width(M::GenerationColumn, u"00"_s));
    table->setColumnWidth(M::DirectionColumn, width(M::DirectionColumn, u"violation"_s));
    // A long name or method ("notifications/progress") is cut: its tooltip holds it whole.
    table->setColumnWidth(M::MethodColumn, width(M::MethodColumn, u"http-exchange"_s));
    table->setColumnWidth(M::LatencyColumn, width(M::LatencyColumn, u"00000 ms"_s));
    header->setSectionResizeMode(M::SummaryColumn, QHeaderView::Stretch);
}

} // namespace Sonde

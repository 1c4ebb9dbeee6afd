// SPDX-License-Identifier: MIT
#include "transcript/replaydialog.h"

#include "values/callvalues.h"
#include "window/jsonview.h"

#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QByteArray indented(const QJsonValue &v)
{
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson();
    if (v.isArray())
        return QJsonDocument(v.toArray()).toJson();
    return ReplayRequest::shortJson(v, 1 << 20).toUtf8();
}

JsonView *answerView(const QString &title, const QString &name, QSplitter *split)
{
    auto *box = new QGroupBox(title, split);
    auto *layout = new QVBoxLayout(box);
    auto *view = new JsonView(box);
    view->setObjectName(name);
    view->setAccessibleName(title);
    layout->addWidget(view);
    return view;
}

} // namespace

ReplayDialog::ReplayDialog(const ReplayRequest &request, QWidget *parent)
    : QDialog(parent), m_request(request)
{
    setObjectName(u"replayDialog"_s);
    setWindowTitle(tr("Replay %1 on %2").arg(request.title(), request.server));
    auto *layout = new QVBoxLayout(this);
    auto *what = new QLabel(
        tr("%1 sent again to the live server %2 as a new request: recorded in generation %3 "
           "as id %4.")
            .arg(request.title(), request.server)
            .arg(request.generation)
            .arg(ReplayRequest::shortJson(request.recordedId, 40)),
        this);
    what->setWordWrap(true);
    layout->addWidget(what);

    auto *split = new QSplitter(Qt::Vertical, this);
    auto *answers = new QSplitter(Qt::Horizontal, split);
    m_recorded = answerView(tr("Recorded answer"), u"replayRecorded"_s, answers);
    m_live = answerView(tr("New answer"), u"replayLive"_s, answers);
    const QJsonValue recorded = request.recordedAnswer();
    if (recorded.isUndefined())
        m_recorded->setPlainText(tr("No answer to it was found in the %1 records after it.")
                                     .arg(ReplayRequest::MaxScanRecords));
    else
        m_recorded->setJson(indented(recorded));
    m_live->setPlainText(tr("Waiting for the answer…"));

    auto *below = new QWidget(split);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    m_count = new QLabel(tr("Waiting for the answer…"), below);
    m_count->setObjectName(u"replayCount"_s);
    belowLayout->addWidget(m_count);
    m_differences = new QTreeWidget(below);
    m_differences->setObjectName(u"replayDifferences"_s);
    m_differences->setAccessibleName(tr("Differences"));
    m_differences->setRootIsDecorated(false);
    m_differences->setUniformRowHeights(true);
    m_differences->setHeaderLabels({tr("Pointer"), tr("Change"), tr("Recorded"), tr("New")});
    m_differences->header()->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics fm = fontMetrics();
    m_differences->setColumnWidth(0, fm.horizontalAdvance(u"/content/0/text/xxxxxx"_s));
    m_differences->setColumnWidth(1, fm.horizontalAdvance(u"type-changed"_s) + 16);
    m_differences->setColumnWidth(2, fm.horizontalAdvance(u"a recorded value, some"_s) + 16);
    belowLayout->addWidget(m_differences, 1);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(fm.averageCharWidth() * 140, fm.height() * 40);
}

void ReplayDialog::showOutcome(const CallOutcome &o)
{
    showAnswer(ReplayRequest::answerOf(o.ok(), o.result, o.error.jsonRpcCode().value_or(0),
                                       o.error.message(), o.error.data()));
}

void ReplayDialog::showAnswer(const QJsonValue &answer)
{
    m_answered = true;
    m_live->setJson(indented(answer));
    m_differences->clear();
    const QJsonValue recorded = m_request.recordedAnswer();
    if (recorded.isUndefined()) {
        m_diff = {};
        m_count->setText(tr("Nothing recorded to compare with"));
        return;
    }
    m_diff = JsonDiff::compare(recorded, answer, {.maxDifferences = MaxListed, .maxDepth = 64});
    QList<QTreeWidgetItem *> rows;
    for (const JsonDifference &d : std::as_const(m_diff.differences)) {
        const bool before = d.kind != JsonDifference::Kind::Added;
        const bool after = d.kind != JsonDifference::Kind::Removed;
        auto *item =
            new QTreeWidgetItem({d.pointer.isEmpty() ? tr("(the whole answer)") : d.pointer,
                                 JsonDifference::kindName(d.kind),
                                 before ? ReplayRequest::shortJson(d.oldValue, 200) : QString(),
                                 after ? ReplayRequest::shortJson(d.newValue, 200) : QString()});
        for (int c = 2; c < 4; ++c)
            item->setToolTip(c, ReplayRequest::shortJson(c == 2 ? d.oldValue : d.newValue, 4000));
        rows.append(item);
    }
    m_differences->addTopLevelItems(rows);
    QString text = m_diff.identical()  ? tr("Identical")
                   : m_diff.total == 1 ? tr("1 difference")
                                       : tr("%1 differences").arg(m_diff.total);
    if (m_diff.omitted() > 0)
        text += tr(" (the first %1 listed)").arg(m_diff.differences.size());
    if (m_diff.depthLimited)
        text += tr("; parts nested deeper than 64 levels compared whole");
    m_count->setText(text);
}

QString ReplayDialog::countText() const
{
    return m_count->text();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transcriptpanel.h"

#include "historystore.h"
#include "jsonview.h"
#include "pagedtranscriptmodel.h"
#include "textdisplay.h"
#include "transcriptexporter.h"
#include "transcriptfilterproxymodel.h"
#include "transcripthistorysource.h"
#include "transcriptmodel.h"
#include "transcriptstore.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

TranscriptPanel::TranscriptPanel(TranscriptStore *store, QWidget *parent)
    : QWidget(parent), m_store(store)
{
    m_model = new TranscriptModel(store, this);
    m_proxy = new TranscriptFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);

    auto *outer = new QVBoxLayout(this);
    auto *filters = new QHBoxLayout;
    m_server = new QComboBox(this);
    m_server->setObjectName(u"transcriptServer"_s);
    m_server->addItem(tr("All servers"), QString());
    m_server->setAccessibleName(tr("Transcript server filter"));
    m_server->setToolTip(tr("Show one server's events, or all"));
    filters->addWidget(m_server);
    using D = TranscriptEvent::Direction;
    const QList<QPair<D, QString>> dirs = {{D::Outgoing, tr("send")},
                                           {D::Incoming, tr("recv")},
                                           {D::Stderr, tr("stderr")},
                                           {D::Lifecycle, tr("events")},
                                           {D::Violation, tr("violations")}};
    for (const auto &[d, label] : dirs) {
        auto *box = new QCheckBox(label, this);
        box->setChecked(true);
        box->setObjectName(u"dir:"_s + TranscriptEvent::directionName(d));
        box->setAccessibleName(tr("Show %1").arg(label));
        box->setToolTip(tr("Show or hide the %1 rows").arg(label));
        const D direction = d;
        connect(box, &QCheckBox::toggled, this, [this, direction](bool on) {
            m_proxy->setDirectionVisible(direction, on);
            queryRecording();
        });
        filters->addWidget(box);
    }
    m_method = new QLineEdit(this);
    m_method->setObjectName(u"transcriptMethod"_s);
    m_method->setPlaceholderText(tr("method"));
    m_method->setAccessibleName(tr("Method filter"));
    m_method->setToolTip(tr("Show the rows whose method contains this text"));
    m_text = new QLineEdit(this);
    m_text->setObjectName(u"transcriptText"_s);
    m_text->setPlaceholderText(tr("text (Ctrl+F)"));
    m_text->setClearButtonEnabled(true);
    m_text->setAccessibleName(tr("Text filter"));
    m_text->setToolTip(tr("Show the rows whose summary or message contains this text"));
    filters->addWidget(m_method);
    filters->addWidget(m_text, 1);
    m_follow = new QCheckBox(tr("Follow"), this);
    m_follow->setChecked(true);
    m_follow->setAccessibleName(tr("Follow the newest rows"));
    m_follow->setToolTip(tr("Keep the newest row in view"));
    filters->addWidget(m_follow);
    outer->addLayout(filters);
    connect(m_method, &QLineEdit::textChanged, m_proxy,
            &TranscriptFilterProxyModel::setMethodFilter);
    connect(m_text, &QLineEdit::textChanged, m_proxy, &TranscriptFilterProxyModel::setTextFilter);
    connect(m_server, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setServerFilter(m_server->currentData().toString()); });
    for (QLineEdit *edit : {m_method, m_text})
        connect(edit, &QLineEdit::textChanged, this, &TranscriptPanel::queryRecording);
    connect(m_server, &QComboBox::currentIndexChanged, this, &TranscriptPanel::queryRecording);
    connect(store, &TranscriptStore::serversChanged, this, [this] {
        for (const QString &s : m_store->servers())
            if (m_server->findData(s) < 0)
                m_server->addItem(s, s);
    });

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(u"transcriptSplitter"_s);
    m_table = new QTableView(split);
    m_table->setObjectName(u"transcriptTable"_s);
    m_table->setAccessibleName(tr("Transcript"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(TranscriptModel::SummaryColumn,
                                                      QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_detail = new JsonView(split);
    m_detail->setObjectName(u"transcriptDetail"_s);
    m_detail->setAccessibleName(tr("Selected message"));
    split->setStretchFactor(0, 3);
    outer->addWidget(split, 1);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TranscriptPanel::onCurrentChanged);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow->isChecked())
            m_table->scrollToBottom();
    });

    auto *buttons = new QHBoxLayout;
    m_secrets = new QCheckBox(tr("Include secrets and session ids in exports"), this);
    m_secrets->setObjectName(u"exportSecrets"_s);
    m_secrets->setAccessibleName(m_secrets->text());
    m_secrets->setToolTip(tr("Unchecked, exports mask secrets and session ids"));
    auto *jsonl = new QPushButton(tr("Export JSON Lines…"), this);
    auto *md = new QPushButton(tr("Export Markdown…"), this);
    auto *clear = new QPushButton(tr("Clear"), this);
    jsonl->setAccessibleName(tr("Export JSON Lines"));
    jsonl->setToolTip(tr("Save the rows shown as JSON Lines, as sonde-cli --transcript writes"));
    md->setAccessibleName(tr("Export Markdown"));
    md->setToolTip(tr("Save the rows shown as a Markdown report"));
    clear->setAccessibleName(tr("Clear the transcript"));
    clear->setToolTip(tr("Remove every row from the transcript"));
    buttons->addWidget(m_secrets);
    buttons->addStretch();
    buttons->addWidget(clear);
    buttons->addWidget(jsonl);
    buttons->addWidget(md);
    outer->addLayout(buttons);
    connect(jsonl, &QPushButton::clicked, this, [this] { exportWithDialog(u"jsonl"_s); });
    connect(md, &QPushButton::clicked, this, [this] { exportWithDialog(u"md"_s); });
    connect(clear, &QPushButton::clicked, m_store, &TranscriptStore::clear);
}

TranscriptPanel::~TranscriptPanel() = default;

void TranscriptPanel::showRecording(std::shared_ptr<const HistoryStore> reader, qint64 runId)
{
    m_reader = std::move(reader);
    m_recordingFilter = {};
    m_recordingFilter.runId = runId;
    if (!m_paged) {
        m_paged = new PagedTranscriptModel(this);
        const QByteArray layout = saveLayout();
        m_table->setModel(m_paged);
        restoreLayout(layout);
        connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                &TranscriptPanel::onCurrentChanged);
        connect(m_paged, &QAbstractItemModel::rowsInserted, this, [this] {
            if (m_follow->isChecked())
                m_table->scrollToBottom();
        });
    }
    queryRecording();
}

QAbstractItemModel *TranscriptPanel::tableModel() const
{
    return m_table->model();
}

void TranscriptPanel::setFollowClock(const Clock *clock)
{
    delete m_followTimer;
    m_followClock = clock;
    m_followTimer = clock->createTimer(this);
    connect(m_followTimer, &ClockTimer::timeout, this, &TranscriptPanel::followNow);
    m_followedOnce = false;
}

void TranscriptPanel::followRecording()
{
    if (!m_paged)
        return;
    if (!m_followClock) {
        m_ownClock = std::make_unique<SteadyClock>();
        setFollowClock(m_ownClock.get());
    }
    if (m_followTimer->isActive())
        return; // the follow due then reads every row committed until then
    const qint64 since = m_followClock->nowMs() - m_lastFollowMs;
    if (!m_followedOnce || since >= FollowIntervalMs)
        followNow();
    else
        m_followTimer->start(FollowIntervalMs - since);
}

void TranscriptPanel::followNow()
{
    if (!m_paged)
        return;
    m_followedOnce = true;
    m_lastFollowMs = m_followClock->nowMs();
    m_paged->followSource();
}

// The filter boxes, as the history's query: the same server, directions and method part;
// the text as an FTS5 phrase (whole words, not any part of one).
void TranscriptPanel::queryRecording()
{
    if (!m_paged)
        return;
    HistoryFilter f;
    f.runId = m_recordingFilter.runId;
    f.server = m_server->currentData().toString();
    using D = TranscriptEvent::Direction;
    const QList<D> all = {D::Outgoing, D::Incoming, D::Stderr, D::Lifecycle, D::Violation};
    for (D d : all)
        if (m_proxy->isDirectionVisible(d))
            f.directions << TranscriptEvent::directionName(d);
    if (f.directions.size() == all.size())
        f.directions.clear();
    else if (f.directions.isEmpty())
        f.directions << u"none"_s; // every box unchecked shows nothing, as the proxy does
    f.methodContains = m_method->text().trimmed();
    f.text = m_text->text().trimmed();
    m_recordingFilter = f;
    m_paged->setSource(std::make_unique<TranscriptHistorySource>(m_reader, f));
    if (m_follow->isChecked())
        m_table->scrollToBottom();
}

// The row of the paged table that shows `event`: the rows before its millisecond are
// counted, and the few of that millisecond looked through.
int TranscriptPanel::recordingRowOf(const TranscriptEvent &event) const
{
    HistoryFilter before = m_recordingFilter;
    before.toMs = event.timeMs - 1;
    const qint64 from = m_reader->count(before);
    const QString dir = TranscriptEvent::directionName(event.direction);
    for (qint64 row = from;
         row < qMin<qint64>(from + PagedTranscriptModel::PageSize, m_paged->rowCount()); ++row) {
        const QJsonObject r = m_paged->record(int(row));
        if (r.value("t_ms"_L1).toInteger() > event.timeMs)
            break;
        if (r.value("server"_L1).toString() == event.server &&
            r.value("dir"_L1).toString() == dir && r.value("gen"_L1).toInt() == event.generation)
            return int(row);
    }
    return -1;
}

bool TranscriptPanel::selectStoreRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return false;
    if (m_paged) {
        const int at = recordingRowOf(m_store->event(row));
        if (at < 0)
            return false;
        m_follow->setChecked(false);
        const QModelIndex index = m_paged->index(at, 0);
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
        return true;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_follow->setChecked(false);
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

int TranscriptPanel::currentStoreRow() const
{
    if (m_paged)
        return -1; // the rows are the history's, not the store's
    const QModelIndex index = m_proxy->mapToSource(m_table->currentIndex());
    return index.isValid() ? index.row() : -1;
}

QByteArray TranscriptPanel::saveLayout() const
{
    return m_table->horizontalHeader()->saveState();
}

void TranscriptPanel::restoreLayout(const QByteArray &state)
{
    if (!state.isEmpty())
        m_table->horizontalHeader()->restoreState(state);
}

void TranscriptPanel::focusFilter()
{
    m_text->setFocus();
    m_text->selectAll();
}

void TranscriptPanel::onCurrentChanged()
{
    const QModelIndex idx = m_table->currentIndex();
    if (m_paged) {
        const QJsonObject r = idx.data(PagedTranscriptModel::RecordRole).toJsonObject();
        QByteArray shown;
        if (r.value("msg"_L1).isObject())
            shown = QJsonDocument(r.value("msg"_L1).toObject()).toJson(QJsonDocument::Compact);
        else if (r.contains("details"_L1))
            shown = QJsonDocument(r.value("details"_L1).toObject()).toJson(QJsonDocument::Compact);
        else
            shown = r.value(r.contains("line"_L1) ? "line"_L1 : "raw"_L1).toString().toUtf8();
        m_detail->setJson(shown, tr("in the history"));
        return;
    }
    QByteArray shown = idx.data(TranscriptModel::RawRole).toByteArray();
    // An event has no frame: its details are what it says (a verdict names its request).
    if (shown.isEmpty()) {
        const auto e = idx.data(TranscriptModel::EventRole).value<TranscriptEvent>();
        if (!e.details.isEmpty())
            shown = QJsonDocument(e.details).toJson(QJsonDocument::Compact);
    }
    m_detail->setJson(shown, tr("in the exported transcript"));
}

QString TranscriptPanel::exportTo(const QString &path, const QString &format) const
{
    QString error;
    const bool redact = !m_secrets->isChecked();
    const auto write = [&](const TranscriptStore &store, const TranscriptExporter::Rows &rows) {
        return format == "md"_L1 ? TranscriptExporter::writeMarkdown(store, path, redact,
                                                                     m_redactor, &error, rows)
                                 : TranscriptExporter::writeJsonLines(store, path, redact,
                                                                      m_redactor, &error, rows);
    };
    if (m_paged) {
        // The rows shown are the history's (the store keeps only a tail then): read through
        // the paged model, filters applied, into a store of their own for the same writers.
        const QList<QJsonObject> records = TranscriptExporter::modelRecords(
            *m_paged, TranscriptExporter::MaxDialogRecords, &error);
        if (!error.isEmpty())
            return error;
        TranscriptStore shown(int(records.size()) + 1, nullptr, std::numeric_limits<qint64>::max());
        TranscriptExporter::appendRecords(shown, records);
        return write(shown, std::nullopt) ? QString() : error;
    }
    return write(*m_store, m_proxy->visibleStoreRows()) ? QString() : error;
}

void TranscriptPanel::exportWithDialog(const QString &format)
{
    // Opened, not exec()'d: the engine's answers keep flowing into the store while it is up.
    auto *dialog =
        new QFileDialog(this, tr("Export transcript"), QString(),
                        format == "md"_L1 ? tr("Markdown (*.md)") : tr("JSON Lines (*.jsonl)"));
    dialog->setObjectName(u"exportDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->selectFile(format == "md"_L1 ? u"transcript.md"_s : u"transcript.jsonl"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this, format](const QString &path) {
        const QString error = exportTo(path, format);
        if (error.isEmpty())
            return;
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Export failed"), error,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    dialog->open();
}

} // namespace Sonde

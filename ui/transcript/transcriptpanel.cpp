// SPDX-License-Identifier: MIT
#include "transcript/transcriptpanel.h"

#include "application/servers/serverregistry.h"
#include "application/transcript/recordingtranscript.h"
#include "application/transcript/transcriptexporter.h"
#include "application/transcript/transcriptfilterproxymodel.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "transcript/eventtablecolumns.h"
#include "transcript/exportdialog.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
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
    m_filtering = new QLabel(tr("Filtering…"), this);
    m_filtering->setObjectName(u"transcriptFiltering"_s);
    // Its place is kept while hidden, so the text box does not jump on every keystroke.
    QSizePolicy keep = m_filtering->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_filtering->setSizePolicy(keep);
    m_filtering->hide();
    filters->addWidget(m_filtering);
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
    sizeEventColumns(m_table);
    m_table->setWordWrap(false);
    m_detail = new JsonView(split);
    m_detail->setObjectName(u"transcriptDetail"_s);
    m_detail->setAccessibleName(tr("Selected message"));
    split->setStretchFactor(0, 3);
    outer->addWidget(split, 1);
    watchSelection();
    buildRowMenu();
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
    jsonl->setObjectName(u"transcriptExportJsonl"_s);
    md->setObjectName(u"transcriptExportMarkdown"_s);
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
    connect(m_secrets, &QCheckBox::toggled, this, &TranscriptPanel::updateRowActions);
    updateRowActions();
}

TranscriptPanel::~TranscriptPanel() = default;

void TranscriptPanel::followServers(const ServerRegistry *registry)
{
    connect(registry, &ServerRegistry::serverAdded, this, &TranscriptPanel::addSecrets);
}

void TranscriptPanel::showRecording(std::shared_ptr<const HistoryStore> reader, qint64 runId)
{
    delete m_recording;
    m_recording = new RecordingTranscript(std::move(reader), runId, this);
    if (m_followClock)
        m_recording->setFollowClock(m_followClock);
    const QByteArray layout = saveLayout();
    m_table->setModel(m_recording->model());
    restoreLayout(layout);
    watchSelection();
    const auto toBottom = [this] {
        if (m_follow->isChecked())
            m_table->scrollToBottom();
    };
    connect(m_recording->model(), &QAbstractItemModel::rowsInserted, this, toBottom);
    connect(m_recording, &RecordingTranscript::filtered, this, toBottom);
    connect(m_recording, &RecordingTranscript::pendingChanged, m_filtering, &QWidget::setVisible);
    queryRecording();
}

QAbstractItemModel *TranscriptPanel::tableModel() const
{
    return m_table->model();
}

TranscriptModel *TranscriptPanel::recordingModel() const
{
    return m_recording ? m_recording->model() : nullptr;
}

void TranscriptPanel::setFollowClock(const Clock *clock)
{
    m_followClock = clock;
    if (m_recording)
        m_recording->setFollowClock(clock);
}

void TranscriptPanel::followRecording()
{
    if (m_recording)
        m_recording->follow();
}

void TranscriptPanel::queryRecording()
{
    if (!m_recording)
        return;
    TranscriptViewFilter f;
    f.server = m_server->currentData().toString();
    using D = TranscriptEvent::Direction;
    for (D d : {D::Outgoing, D::Incoming, D::Stderr, D::Lifecycle, D::Violation})
        if (m_proxy->isDirectionVisible(d))
            f.directions << d;
    f.methodContains = m_method->text();
    f.text = m_text->text();
    m_recording->setFilter(f, m_follow->isChecked());
}

bool TranscriptPanel::selectStoreRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return false;
    if (m_recording) {
        const int at = m_recording->rowOf(*m_store, row);
        if (at < 0)
            return false;
        m_follow->setChecked(false);
        const QModelIndex index = m_recording->model()->index(at, 0);
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
    if (m_recording)
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
    if (state.isEmpty())
        return;
    QHeaderView *header = m_table->horizontalHeader();
    header->restoreState(state);
    // A layout saved while the Latency column came after the Summary gives the Latency the
    // Summary's stretch: the Summary takes what is left, whatever was saved.
    header->setSectionResizeMode(TranscriptModel::LatencyColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(TranscriptModel::SummaryColumn, QHeaderView::Stretch);
}

void TranscriptPanel::focusFilter()
{
    m_text->setFocus();
    m_text->selectAll();
}

// The detail shows the selected row, and nothing once a filter hid it: the table then keeps a
// neighbour as current but selects none, and a model reset (the history's paged rows, at each
// filter change) clears the current row without a signal.
void TranscriptPanel::watchSelection()
{
    QItemSelectionModel *selection = m_table->selectionModel();
    connect(selection, &QItemSelectionModel::currentRowChanged, this,
            &TranscriptPanel::onCurrentChanged);
    connect(selection, &QItemSelectionModel::selectionChanged, this,
            &TranscriptPanel::onCurrentChanged);
    connect(m_table->model(), &QAbstractItemModel::modelReset, this,
            &TranscriptPanel::onCurrentChanged);
}

void TranscriptPanel::onCurrentChanged()
{
    updateRowActions();
    QModelIndex idx = m_table->currentIndex();
    if (!m_table->selectionModel()->isRowSelected(idx.row(), idx.parent()))
        idx = {};
    const TranscriptEvent *e = idx.isValid() ? eventAt(idx.row()) : nullptr;
    QByteArray shown = e ? e->raw : QByteArray();
    // An event has no frame: its details are what it says (a verdict names its request).
    if (const QJsonObject details = e && e->details ? e->details->toJson() : QJsonObject();
        shown.isEmpty() && !details.isEmpty())
        shown = QJsonDocument(details).toJson(QJsonDocument::Compact);
    m_detail->setJson(shown, m_recording ? tr("in the history") : tr("in the exported transcript"));
}

// The actions are the table's, so their keys work while it has the focus and no other tab
// sees them; the menu is popped up, not exec()'d (no nested event loop).
void TranscriptPanel::buildRowMenu()
{
    m_replay = new QAction(tr("Replay…"), m_table);
    m_replay->setObjectName(u"transcriptReplay"_s);
    m_replay->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_replay->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_replay, &QAction::triggered, this, &TranscriptPanel::replayCurrent);
    m_copyJson = new QAction(tr("Copy JSON"), m_table);
    m_copyJson->setObjectName(u"transcriptCopyJson"_s);
    m_copyJson->setShortcut(QKeySequence::Copy);
    m_copyJson->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyJson, &QAction::triggered, this, &TranscriptPanel::copyCurrentJson);
    m_table->addActions({m_replay, m_copyJson});
    m_rowMenu = new QMenu(this);
    m_rowMenu->setObjectName(u"transcriptRowMenu"_s);
    m_rowMenu->setAccessibleName(tr("Transcript row"));
    m_rowMenu->setToolTipsVisible(true);
    m_rowMenu->addActions({m_replay, m_copyJson});
    // A right click comes to the viewport, the menu key to the table (it has the focus).
    m_table->viewport()->installEventFilter(this);
    m_table->installEventFilter(this);
}

bool TranscriptPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ContextMenu)
        return QWidget::eventFilter(watched, event);
    const auto *e = static_cast<QContextMenuEvent *>(event);
    QPoint at = e->globalPos();
    if (e->reason() == QContextMenuEvent::Mouse && watched == m_table->viewport()) {
        const QModelIndex row = m_table->indexAt(m_table->viewport()->mapFromGlobal(at));
        if (row.isValid())
            m_table->setCurrentIndex(row);
    } else if (e->reason() != QContextMenuEvent::Mouse && watched == m_table) {
        // The menu key means the current row, wherever the mouse is: the menu opens on it.
        if (const QModelIndex row = m_table->currentIndex(); row.isValid())
            at = m_table->viewport()->mapToGlobal(m_table->visualRect(row).center());
    } else {
        return QWidget::eventFilter(watched, event); // the header's, say
    }
    updateRowActions(); // a model reset leaves the selection without a signal
    m_rowMenu->popup(at);
    return true;
}

void TranscriptPanel::updateRowActions()
{
    const int row = m_table->currentIndex().row();
    const bool any = row >= 0;
    m_copyJson->setEnabled(any);
    m_copyJson->setToolTip(m_secrets->isChecked()
                               ? tr("Copy the row's transcript record")
                               : tr("Copy the row's transcript record, secrets and session ids "
                                    "masked as in exports"));
    QString why;
    const TranscriptEvent *e = eventAt(row);
    const bool replayable = e && ReplayRequest::fromEvent(*e, &why).has_value();
    if (!any)
        why = tr("no row is selected");
    m_replay->setEnabled(replayable);
    m_replay->setText(replayable ? tr("Replay…") : tr("Replay… (%1)").arg(why));
    m_replay->setToolTip(replayable ? tr("Send this request again to the live server and "
                                         "compare the answers")
                                    : tr("Not a request to replay: %1").arg(why));
    m_replay->setStatusTip(m_replay->toolTip());
}

const TranscriptEvent *TranscriptPanel::eventAt(int row) const
{
    if (row < 0 || row >= m_table->model()->rowCount())
        return nullptr;
    if (m_recording)
        return m_recording->model()->event(row);
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(row, 0));
    return source.isValid() ? &m_store->event(source.row()) : nullptr;
}

std::optional<ReplayRequest> TranscriptPanel::replayRequestAt(int row, QString *why) const
{
    const TranscriptEvent *e = eventAt(row);
    if (!e) {
        if (why)
            *why = tr("no row is selected");
        return std::nullopt;
    }
    std::optional<ReplayRequest> request = ReplayRequest::fromEvent(*e, why);
    if (!request)
        return request;
    // The answer is looked for among everything after the request, not the rows shown: a
    // filter on "send" or on the method text would hide it.
    if (m_recording) {
        m_recording->collectAnswer(*request);
        return request;
    }
    const int from = m_proxy->mapToSource(m_proxy->index(row, 0)).row() + 1;
    request->collect([this](qint64 r) { return &m_store->event(int(r)); }, from, m_store->size());
    return request;
}

void TranscriptPanel::replayCurrent()
{
    QString why;
    // Asked again: the row may have changed since the menu's state was set (a model reset).
    if (std::optional<ReplayRequest> request = replayRequestAt(m_table->currentIndex().row(), &why))
        Q_EMIT replayRequested(*request);
}

void TranscriptPanel::copyCurrentJson() const
{
    const TranscriptEvent *e = eventAt(m_table->currentIndex().row());
    if (!e)
        return;
    QJsonObject record = e->toJson();
    // A clipboard ends up in bug reports: masked as an export is, unless the box says not.
    if (!m_secrets->isChecked())
        record = m_redactor.apply(record);
    QGuiApplication::clipboard()->setText(
        QString::fromUtf8(QJsonDocument(record).toJson(QJsonDocument::Indented)));
}

bool TranscriptPanel::exportShownFromHistory(const QString &format)
{
    HistoryFilter filter;
    if (!m_recording || !m_recording->shownFilter(&filter))
        return false;
    // The rows the filters show, read from the history file by the dialog's own thread, a
    // page at a time: the rows counted so far, not those recorded while it writes.
    ExportDialog::Source shown;
    shown.title = tr("the %n event(s) the Transcript tab's filters show", nullptr,
                     m_recording->model()->rowCount());
    shown.input.historyPath = m_recording->path();
    shown.input.filter = filter;
    auto *dialog = new ExportDialog(std::move(shown), m_redactor, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->choose(format == "md"_L1 ? TranscriptExport::Format::Markdown
                                     : TranscriptExport::Format::Jsonl,
                   m_secrets->isChecked());
    dialog->open();
    return true;
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
    if (m_recording) {
        // The rows shown are the history's (the store keeps only a tail then): read through
        // the model, filters applied, into a store of their own for the same writers.
        const TranscriptBatch events = TranscriptExporter::modelEvents(
            *m_recording->model(), TranscriptExporter::MaxDialogRecords, &error);
        if (!error.isEmpty())
            return error;
        TranscriptStore shown(int(events.size()) + 1, nullptr, std::numeric_limits<qint64>::max());
        shown.append(events);
        return write(shown, std::nullopt) ? QString() : error;
    }
    return write(*m_store, m_proxy->visibleStoreRows()) ? QString() : error;
}

void TranscriptPanel::exportWithDialog(const QString &format)
{
    if (exportShownFromHistory(format))
        return;
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

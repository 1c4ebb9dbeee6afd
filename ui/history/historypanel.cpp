// SPDX-License-Identifier: MIT
#include "history/historypanel.h"

#include "application/transcript/replayrequest.h"
#include "application/transcript/transcriptfilterquery.h"
#include "application/transcript/transcriptmodel.h"
#include "transcript/eventtablecolumns.h"
#include "window/jsonview.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString dateTimeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"yyyy-MM-dd HH:mm:ss"_s);
}

// Two lines: which session, then when and what it spoke.
QString sessionText(const RecordedSession &s)
{
    // Generation 0 is what came before the first session was up (the era probe, a failed
    // start).
    QString first = s.generation == 0 ? HistoryPanel::tr("Connecting")
                                      : HistoryPanel::tr("Generation %1").arg(s.generation);
    first += s.endedMs
                 ? HistoryPanel::tr(" · %n event(s)", nullptr, int(qMin<qint64>(s.events, INT_MAX)))
                 : HistoryPanel::tr(" · recording, %n event(s) so far", nullptr,
                                    int(qMin<qint64>(s.events, INT_MAX)));
    QString second = dateTimeText(s.startedMs);
    if (s.endedMs)
        second += u" – "_s + QDateTime::fromMSecsSinceEpoch(s.endedMs).toString(u"HH:mm:ss"_s);
    if (!s.era.isEmpty() || !s.protocolVersion.isEmpty())
        second += u" · "_s + QStringList{s.era, s.protocolVersion}.join(u' ').trimmed();
    return first + u'\n' + second;
}

} // namespace

HistoryPanel::HistoryPanel(HistoryCatalog *catalog, QWidget *parent) : QWidget(parent)
{
    m_events = new TranscriptModel(this);
    auto *outer = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_source = new QComboBox(this);
    m_source->setObjectName(u"historySource"_s);
    m_source->setAccessibleName(tr("History source"));
    m_source->setToolTip(tr("This workspace's history, or a transcript file opened offline "
                            "(File > Open transcript…)"));
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_source->addItem(tr("This workspace"));
    m_sources.append({tr("This workspace"), catalog});
    connect(m_source, &QComboBox::currentIndexChanged, this, &HistoryPanel::showSource);
    bar->addWidget(m_source);
    // An opened file has servers of its own, none of them the window's.
    m_fileServer = new QComboBox(this);
    m_fileServer->setObjectName(u"historyFileServer"_s);
    m_fileServer->setAccessibleName(tr("Server in the opened file"));
    m_fileServer->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_fileServer->hide();
    connect(m_fileServer, &QComboBox::currentTextChanged, this, [this] {
        m_sessions->clear();
        refresh();
    });
    bar->addWidget(m_fileServer);
    m_closeFile = new QPushButton(tr("Close file"), this);
    m_closeFile->setObjectName(u"closeHistoryFile"_s);
    m_closeFile->setAccessibleName(tr("Close the opened file"));
    m_closeFile->setEnabled(false);
    m_closeFile->setToolTip(tr("This workspace's history cannot be closed"));
    connect(m_closeFile, &QPushButton::clicked, this, [this] {
        if (!isWorkspace())
            Q_EMIT closeRequested(currentCatalog());
    });
    bar->addWidget(m_closeFile);
    m_search = new QLineEdit(this);
    m_search->setObjectName(u"historySearch"_s);
    m_search->setPlaceholderText(tr("Search the whole history (method, tool, payload text)"));
    m_search->setAccessibleName(tr("Search history"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::returnPressed, this, &HistoryPanel::search);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty())
            showSession(m_sessions->currentRow());
    });
    bar->addWidget(m_search, 1);
    m_replay = new QPushButton(tr("Replay…"), this);
    m_replay->setObjectName(u"replayRequest"_s);
    m_replay->setToolTip(tr("Send the selected request again to the live server and compare "
                            "the answers"));
    m_replay->setAccessibleName(tr("Replay"));
    m_replay->setEnabled(false);
    connect(m_replay, &QPushButton::clicked, this,
            [this] { Q_EMIT replayRequested(m_table->currentIndex().row()); });
    bar->addWidget(m_replay);
    m_clear = new QPushButton(tr("Clear history…"), this);
    m_clear->setObjectName(u"clearHistory"_s);
    m_clear->setToolTip(tr("Delete everything recorded, for every server"));
    m_clear->setEnabled(catalog);
    connect(m_clear, &QPushButton::clicked, this, &HistoryPanel::clearHistory);
    m_timeline = new QPushButton(tr("Show on timeline"), this);
    m_timeline->setObjectName(u"showOnTimeline"_s);
    m_timeline->setToolTip(tr("Draw the picked session's recorded events on the Timeline tab"));
    m_timeline->setEnabled(false);
    connect(m_timeline, &QPushButton::clicked, this, [this] {
        if (const RecordedSession s = currentSession(); s.id)
            Q_EMIT timelineRequested(s);
    });
    bar->addWidget(m_timeline);
    bar->addWidget(m_clear);
    outer->addLayout(bar);

    auto *split = new QSplitter(Qt::Horizontal, this);
    m_sessions = new QListWidget(split);
    m_sessions->setObjectName(u"historySessions"_s);
    m_sessions->setAccessibleName(tr("Recorded sessions"));
    // A row's date and times; the rest of a long row is in its tooltip.
    m_sessions->setMinimumWidth(fontMetrics().horizontalAdvance(u"0000-00-00 00:00 – 00:00"_s) +
                                24);
    // Rows wider than the list end in "…" (each has its whole text as a tooltip) instead of
    // sliding under a horizontal scroll bar.
    m_sessions->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_sessions->setTextElideMode(Qt::ElideRight);
    connect(m_sessions, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_search->text().isEmpty())
            showSession(row);
    });
    auto *right = new QSplitter(Qt::Vertical, split);
    m_table = new QTableView(right);
    m_table->setObjectName(u"historyEvents"_s);
    m_table->setAccessibleName(tr("Recorded events"));
    m_table->setModel(m_events);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Fixed row heights: a view that measured each row would read every page of a million.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    sizeEventColumns(m_table);
    // The sessions list takes a third of this tab: in a 1024-pixel window the Latency column
    // would leave the Summary under 100 pixels. The Transcript tab, full width, shows it.
    m_table->setColumnHidden(TranscriptModel::LatencyColumn, true);
    m_table->setWordWrap(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HistoryPanel::showSelectedEvent);
    m_json = new JsonView(right);
    m_json->setObjectName(u"historyEvent"_s);
    m_json->setAccessibleName(tr("Recorded event JSON"));
    split->setStretchFactor(1, 3);
    right->setStretchFactor(0, 3);
    // The list at its least, so the events' Summary fits beside it in a 1024-wide window.
    split->setSizes({m_sessions->minimumWidth(), 3 * m_sessions->minimumWidth()});
    outer->addWidget(split, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(u"historyStatus"_s);
    outer->addWidget(m_status);
}

void HistoryPanel::setCatalog(HistoryCatalog *catalog)
{
    m_sources[0].catalog = catalog;
    if (isWorkspace())
        showSource(0);
}

void HistoryPanel::setServer(const QString &server)
{
    if (server == m_server)
        return;
    m_server = server;
    if (!isWorkspace())
        return; // the window's server is not in an opened file
    m_sessions->clear();
    refresh();
}

void HistoryPanel::noteSessionStarted(const QString &server)
{
    if (server == m_server && isWorkspace())
        m_sessionsStale = true;
}

void HistoryPanel::noteRecorded()
{
    if (m_sessionsStale && isVisible() && isWorkspace() && m_search->text().isEmpty()) {
        m_sessionsStale = false;
        refresh();
    }
}

void HistoryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_sessionsStale, false) && isWorkspace())
        refresh();
}

void HistoryPanel::addSource(const QString &name, HistoryCatalog *catalog)
{
    m_sources.append({name, catalog});
    m_source->addItem(name);
    m_source->setItemData(m_source->count() - 1, name, Qt::ToolTipRole);
    m_source->setCurrentIndex(m_source->count() - 1);
}

void HistoryPanel::removeSource(HistoryCatalog *catalog)
{
    for (int i = 1; i < m_sources.size(); ++i) {
        if (m_sources.at(i).catalog != catalog)
            continue;
        // Its file is deleted next: the query's thread lets go of it first.
        if (m_query && !catalog->historyPath().isEmpty())
            m_query->release(catalog->historyPath());
        if (m_asked == catalog)
            m_awaited = 0; // its answer, if one is on its way, is not shown
        if (m_shown && m_shown->first == catalog->historyPath())
            m_shown.reset(); // an export must not open the file being deleted
        // The one shown gives way to the workspace (the combo box would show its neighbour).
        if (m_source->currentIndex() == i)
            m_source->setCurrentIndex(0);
        m_sources.removeAt(i);
        m_source->removeItem(i); // a later source shown moves up through currentIndexChanged
        return;
    }
}

bool HistoryPanel::isWorkspace() const
{
    return m_source->currentIndex() <= 0;
}

HistoryCatalog *HistoryPanel::currentCatalog() const
{
    return m_sources.value(qMax(0, m_source->currentIndex())).catalog;
}

QString HistoryPanel::currentServer() const
{
    return isWorkspace() ? m_server : m_fileServer->currentText();
}

RecordedSession HistoryPanel::currentSession() const
{
    return m_shownSessions.value(m_sessions->currentRow());
}

void HistoryPanel::showSource(int index)
{
    const bool file = index > 0;
    m_clear->setEnabled(!file && currentCatalog());
    m_closeFile->setEnabled(file);
    m_closeFile->setToolTip(file ? tr("Close %1 and delete the temporary history it was read "
                                      "into; the file itself stays")
                                       .arg(m_sources.value(index).name)
                                 : tr("This workspace's history cannot be closed"));
    m_fileServer->setVisible(file);
    {
        const QSignalBlocker block(m_fileServer);
        m_fileServer->clear();
        if (file && currentCatalog())
            m_fileServer->addItems(currentCatalog()->servers());
    }
    m_sessions->clear();
    refresh();
}

void HistoryPanel::refresh()
{
    const qint64 picked = currentSession().id;
    const QSignalBlocker block(m_sessions);
    m_sessions->clear();
    HistoryCatalog *catalog = currentCatalog();
    const QString server = currentServer();
    m_shownSessions =
        catalog && !server.isEmpty() ? catalog->sessions(server) : QList<RecordedSession>();
    int row = m_shownSessions.isEmpty() ? -1 : 0;
    for (const RecordedSession &s : std::as_const(m_shownSessions)) {
        auto *item = new QListWidgetItem(sessionText(s), m_sessions);
        item->setToolTip(item->text());
        if (s.id == picked)
            row = m_sessions->count() - 1;
    }
    m_sessions->setCurrentRow(row);
    if (m_search->text().isEmpty())
        showSession(row);
    else
        search();
}

void HistoryPanel::showSession(int row)
{
    HistoryCatalog *catalog = currentCatalog();
    const QString server = currentServer();
    const RecordedSession s = m_shownSessions.value(row);
    m_timeline->setEnabled(catalog && s.id);
    if (!catalog || !s.id) {
        m_awaited = 0;
        m_shown.reset();
        m_events->setSource(nullptr);
        m_status->setText(!catalog           ? tr("History is not recorded in this window")
                          : server.isEmpty() ? tr("No server selected")
                                             : tr("Nothing recorded for %1 yet").arg(server));
        m_json->setJson({});
        return;
    }
    if (ask(catalog, HistoryCatalog::sessionFilter(s.id))) {
        m_status->setText(tr("Reading the session…"));
        return;
    }
    m_awaited = 0;
    m_shown.reset();
    m_events->setSource(catalog->sessionEvents(s.id));
    m_status->setText(tr("%n event(s) in this session", nullptr, m_events->rowCount()));
}

void HistoryPanel::search()
{
    const QString text = m_search->text().trimmed();
    HistoryCatalog *catalog = currentCatalog();
    if (!catalog || text.isEmpty())
        return;
    // The whole history, as the field says: every server of the source (its Server column
    // tells them apart), not the selected one alone.
    if (ask(catalog, HistoryCatalog::searchFilter(text, QString()))) {
        m_status->setText(tr("Searching the whole history for \"%1\"…").arg(text));
        return;
    }
    m_awaited = 0;
    m_shown.reset();
    m_events->setSource(catalog->search(text, QString()));
    m_status->setText(
        tr("%n event(s) in the whole history hold \"%1\"", nullptr, m_events->rowCount())
            .arg(text));
}

bool HistoryPanel::ask(HistoryCatalog *catalog, const HistoryFilter &filter)
{
    const QString path = catalog->historyPath();
    if (path.isEmpty())
        return false;
    if (!m_query) {
        m_query = new TranscriptFilterQuery(this);
        connect(m_query, &TranscriptFilterQuery::answered, this, &HistoryPanel::showAnswer);
    }
    m_query->ask(path, filter, false);
    m_awaited = m_query->ticket();
    m_asked = catalog;
    return true;
}

bool HistoryPanel::isReading() const
{
    return m_awaited != 0;
}

std::optional<std::pair<QString, HistoryFilter>> HistoryPanel::shownHistory() const
{
    return m_shown;
}

void HistoryPanel::showAnswer(const TranscriptFilterAnswer &answer)
{
    // Every later view (another source, server, session or search, or the box cleared) asks
    // again or is shown at once, and drops the ticket: an answer nobody waits for is not shown.
    if (answer.ticket != m_awaited)
        return;
    m_awaited = 0;
    HistoryCatalog *catalog = m_asked;
    const HistoryFilter &f = answer.filter;
    m_shown.reset();
    if (answer.error.isEmpty()) {
        m_events->setSource(catalog->pagesOf(answer), answer.firstRow, answer.events);
        // The rows shown are those counted: an export reads no row recorded since.
        HistoryFilter shown = f;
        if (!shown.untilId && answer.newestId > 0)
            shown.untilId = answer.newestId;
        m_shown = std::pair(catalog->historyPath(), shown);
    } else if (!f.text.isEmpty()) { // the query's thread could not open the file: read here
        m_events->setSource(catalog->search(f.text, f.server));
    } else {
        m_events->setSource(catalog->sessionEvents(f.sessionId));
    }
    m_status->setText(
        f.text.isEmpty()
            ? tr("%n event(s) in this session", nullptr, m_events->rowCount())
            : tr("%n event(s) in the whole history hold \"%1\"", nullptr, m_events->rowCount())
                  .arg(f.text));
}

void HistoryPanel::showSelectedEvent()
{
    const TranscriptEvent *event = m_events->event(m_table->currentIndex().row());
    m_json->setJson(event ? QJsonDocument(event->toJson()).toJson() : QByteArray());
    QString why = tr("no row is selected");
    const bool replayable = event && ReplayRequest::fromEvent(*event, &why).has_value();
    m_replay->setEnabled(replayable);
    m_replay->setToolTip(replayable ? tr("Send this request again to the live server and "
                                         "compare the answers")
                                    : tr("Not a request to replay: %1").arg(why));
}

void HistoryPanel::requestClear()
{
    if (!m_sources.first().catalog)
        return;
    m_source->setCurrentIndex(0);
    clearHistory();
}

void HistoryPanel::clearHistory()
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Clear history"),
                                tr("Delete every recorded session of every server? This cannot "
                                   "be undone."),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(u"clearHistoryConfirm"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this](int answer) {
        // Only the workspace's history is cleared: an opened file's is a copy of the file.
        HistoryCatalog *catalog = m_sources.first().catalog;
        if (answer != QMessageBox::Yes || !catalog)
            return;
        QString error;
        if (!catalog->clear(&error)) {
            m_status->setText(tr("History not cleared: %1").arg(error));
            return;
        }
        m_sessions->clear();
        refresh();
        Q_EMIT cleared();
    });
    box->open();
}

} // namespace Sonde

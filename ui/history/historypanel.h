// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/historycatalog.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <utility>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableView;

namespace Sonde {

class JsonView;
class TranscriptModel;
class TranscriptFilterQuery;
struct TranscriptFilterAnswer;

// The History tab: what was recorded, kept across restarts. Its source is this workspace's
// history (the server the window selected) or a transcript file opened offline (its own list
// of servers). It shows the server's sessions (newest first, by generation and time), then the
// events of the one picked, a page at a time, with the selected event's JSON below; a search
// over the whole source replaces the session's events with its hits. Over a history file both
// are counted off the GUI thread, each page then sought by id (the old rows stay, and the
// status line says "Reading…" or "Searching…", until the answer comes).
// "Show on timeline" asks
// for the picked session to be drawn there; "Close file" asks for the opened file shown to be
// closed (its owner removes it). Reads through HistoryCatalogs it does not own.
class HistoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPanel(HistoryCatalog *catalog, QWidget *parent = nullptr);

    // The workspace's catalog (source 0).
    void setCatalog(HistoryCatalog *catalog);
    // A session of `server` began: its row is listed once the recorder has written it
    // (noteRecorded), or when the tab is shown next.
    void noteSessionStarted(const QString &server);
    void noteRecorded();
    void setServer(const QString &server);
    // Adds an opened file's history as a source named `name`, and shows it. The catalog must
    // outlive the panel or be removed first.
    void addSource(const QString &name, HistoryCatalog *catalog);
    // Takes an opened file's source out (the workspace's is never); if it was shown, the
    // workspace is shown instead.
    void removeSource(HistoryCatalog *catalog);
    int sourceCount() const { return int(m_sources.size()); }
    // The source shown (its catalog may be null: the workspace records nothing), the server
    // whose sessions are listed, and the session picked (id 0: none).
    HistoryCatalog *currentCatalog() const;
    QString currentServer() const;
    RecordedSession currentSession() const;
    // Reads the sessions again (new events recorded since), keeping the one picked.
    void refresh();
    TranscriptModel *eventModel() const { return m_events; }
    // A session's events or a search's hits are read off the GUI thread, not shown yet.
    bool isReading() const;
    // The history file and the filter of what the events table shows, when it reads a file
    // (an export then reads it there, a page at a time); nothing for another catalog.
    std::optional<std::pair<QString, HistoryFilter>> shownHistory() const;
    // Clear history… from elsewhere (History settings): the workspace is shown, then the same
    // question as the tab's button. Nothing when the workspace records nothing.
    void requestClear();

Q_SIGNALS:
    void cleared();
    // "Show on timeline" for the picked session of the current source.
    void timelineRequested(const Sonde::RecordedSession &session);
    // Replay… on the selected event, a request Sonde sent (ReplayLauncher sends it again).
    void replayRequested(int row);
    // "Close file" on an opened file's source (never the workspace's): its owner removes it
    // with removeSource() and frees it.
    void closeRequested(Sonde::HistoryCatalog *catalog);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Source
    {
        QString name;
        HistoryCatalog *catalog = nullptr;
    };
    void showSource(int index);
    void showSession(int row);
    void search();
    bool ask(HistoryCatalog *catalog, const HistoryFilter &filter);
    void showAnswer(const TranscriptFilterAnswer &answer);
    void clearHistory();
    void showSelectedEvent();
    bool isWorkspace() const;

    QList<Source> m_sources;
    QList<RecordedSession> m_shownSessions;
    QString m_server;
    QComboBox *m_source;
    QComboBox *m_fileServer;
    QPushButton *m_closeFile;
    QLineEdit *m_search;
    QPushButton *m_clear;
    QPushButton *m_timeline;
    QPushButton *m_replay;
    bool m_sessionsStale = false;
    QListWidget *m_sessions;
    QTableView *m_table;
    JsonView *m_json;
    QLabel *m_status;
    TranscriptModel *m_events;
    TranscriptFilterQuery *m_query = nullptr; // made by the first view of a history file
    quint64 m_awaited = 0;                    // the ticket of the view asked; 0: none
    HistoryCatalog *m_asked = nullptr;        // whose file it asked about
    // What the table shows when it came from a file: its path and filter.
    std::optional<std::pair<QString, HistoryFilter>> m_shown;
};

} // namespace Sonde

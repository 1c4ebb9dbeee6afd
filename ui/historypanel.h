// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableView;

namespace Sonde {

class HistoryCatalog;
class JsonView;
class PagedTranscriptModel;

// The History tab: what was recorded for the selected server, kept across restarts. Its
// sessions (newest first, by generation and time), then the events of the one picked, a page
// at a time, with the selected event's JSON below; a search over the whole history replaces
// the session's events with its hits. Reads through a HistoryCatalog it does not own.
class HistoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPanel(HistoryCatalog *catalog, QWidget *parent = nullptr);

    void setCatalog(HistoryCatalog *catalog);
    void setServer(const QString &server);
    // Reads the sessions again (new events recorded since), keeping the one picked.
    void refresh();
    PagedTranscriptModel *eventModel() const { return m_events; }

Q_SIGNALS:
    void cleared();
    // Replay… on the selected event, a request Sonde sent (ReplayLauncher sends it again).
    void replayRequested(int row);

private:
    void showSession(int row);
    void search();
    void clearHistory();
    void showSelectedEvent();

    HistoryCatalog *m_catalog;
    QString m_server;
    QLineEdit *m_search;
    QPushButton *m_clear;
    QPushButton *m_replay;
    QListWidget *m_sessions;
    QTableView *m_table;
    JsonView *m_json;
    QLabel *m_status;
    PagedTranscriptModel *m_events;
};

} // namespace Sonde

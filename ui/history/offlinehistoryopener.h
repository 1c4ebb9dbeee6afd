// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QProgressDialog;
class QTimer;
class QWidget;

namespace Sonde {

class HistoryCatalog;
class HistoryPanel;
class OfflineHistory;

// File > Open transcript…: picks a transcript file (Sonde's JSONL or the MCP Inspector's JSON
// export), reads it offline into an OfflineHistory with a progress dialog that can cancel,
// and adds it to the History tab as a source of its own. A bad file gets a message naming the
// line or the reason; the workspace's history is never touched. Owns the opened histories:
// the History tab's Close file (or close()) takes one out of the tab and deletes it, its
// temporary database with it. Thread: GUI.
class OfflineHistoryOpener : public QObject
{
    Q_OBJECT
public:
    OfflineHistoryOpener(HistoryPanel *panel, QWidget *window);
    ~OfflineHistoryOpener() override;

    // The file dialog (window-modal, not a nested loop), then open().
    void choose();
    // Starts reading `path`; opened() or failed() follows (failed() at once when it cannot
    // start).
    void open(const QString &path);
    QList<OfflineHistory *> histories() const { return m_histories; }
    // Removes the opened file read into `catalog` from the History tab and deletes its
    // history; false (nothing done) for a catalog it did not open, such as the workspace's.
    bool close(const HistoryCatalog *catalog);

Q_SIGNALS:
    void opened(const QString &name, const QString &message);
    void failed(const QString &message);
    // Emitted by close() once the tab no longer shows `catalog`, before it is deleted: whoever
    // drew from it (the timeline) lets go. Compare the pointer; do not read through it.
    void aboutToClose(const Sonde::HistoryCatalog *catalog);
    void closed(const QString &name);

private:
    void finish(OfflineHistory *history, bool ok, const QString &message);
    void fail(const QString &message);

    QPointer<HistoryPanel> m_panel; // the window's; it may go first when the window closes
    QWidget *m_window;
    QList<OfflineHistory *> m_histories;
    QPointer<QProgressDialog> m_progress;
    QTimer *m_poll;
};

} // namespace Sonde

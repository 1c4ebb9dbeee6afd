// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/replayrequest.h"
#include "transcript/redactor.h"

#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;

namespace Sonde {

class ServerRegistry;

class Clock;
class HistoryStore;
class JsonView;
class RecordingTranscript;
struct TranscriptEvent;
class TranscriptFilterProxyModel;
class TranscriptModel;
class TranscriptStore;

// Every wire message, stderr line and lifecycle event of all servers in one table, with
// filters (server, direction, method, text), a detail pane with the message's JSON, a row
// menu (right click, the menu key) with Replay… (Ctrl+Shift+R) and Copy JSON (Ctrl+C), and
// Export to JSON Lines or Markdown (secrets and session ids redacted unless opted in: the
// patterns, every configured env and header value of the servers it was told about, and
// every session id seen, kept after the session ended since its events stay in the store).
// Thread: GUI. The store is the window's; this panel only views it.
class TranscriptPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TranscriptPanel(TranscriptStore *store, QWidget *parent = nullptr);
    ~TranscriptPanel() override;
    // What exports mask verbatim; values are only ever added, because events holding an
    // edited or removed server's old values stay in the store.
    void addSecrets(const ServerConfig &config) { m_redactor.addSecrets(config); }
    // Masks each server's secrets in exports from the moment the registry adds it.
    void followServers(const ServerRegistry *registry);
    void addSessionId(const QString &id) { m_redactor.addSessionId(id); }
    // Writes what the filters show; format "jsonl" or "md". Returns an error text or empty.
    QString exportTo(const QString &path, const QString &format) const;
    TranscriptFilterProxyModel *proxy() const { return m_proxy; }
    // Shows one event of the store (e.g. what the timeline was clicked on); false when the
    // filters hide it.
    bool selectStoreRow(int row);
    int currentStoreRow() const;
    QByteArray saveLayout() const;
    void restoreLayout(const QByteArray &state);

    // The table shows this run's events from the SQLite history (`reader`, a read connection
    // of its own; `runId`, HistoryRecorder::runId) through a RecordingTranscript, with the
    // filters in its query, instead of the in-memory store: its memory then stays the same
    // however long the recording. Exports and the timeline's jumps still use the store.
    void showRecording(std::shared_ptr<const HistoryStore> reader, qint64 runId);
    bool showsRecording() const { return m_recording != nullptr; }
    // The table's model now: the recording's, or the filter proxy over the store's.
    QAbstractItemModel *tableModel() const;
    TranscriptModel *recordingModel() const;
    // The time line the recording's following is throttled on (not owned; it outlives the
    // panel; RecordingTranscript::setFollowClock).
    void setFollowClock(const Clock *clock);

    // The event in row `row` of tableModel(), in either mode; null when there is no such row.
    const TranscriptEvent *eventAt(int row) const;
    // That row as a request to send again, with its recorded answer and verdicts from the
    // events of its server after it, whatever the filters hide; nullopt with the reason when
    // it is not one (ReplayRequest::fromEvent).
    std::optional<ReplayRequest> replayRequestAt(int row, QString *why) const;

Q_SIGNALS:
    // Replay… on a row that is a request (ReplayLauncher::replay sends it again).
    void replayRequested(const Sonde::ReplayRequest &request);

public Q_SLOTS:
    void focusFilter();
    // A batch was committed (HistoryRecorder::recorded): its rows are appended to the table,
    // now or at the end of RecordingTranscript::FollowIntervalMs since the last follow.
    void followRecording();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void watchSelection();
    void onCurrentChanged();
    void exportWithDialog(const QString &format);
    // Over a recording: the export dialog on what the filters show, read from the history off
    // the GUI thread. False when the table is the live store's (the file dialog then).
    bool exportShownFromHistory(const QString &format);
    void queryRecording();
    void buildRowMenu();
    void updateRowActions();
    void replayCurrent();
    void copyCurrentJson() const;

    TranscriptStore *m_store;
    TranscriptModel *m_model = nullptr;
    TranscriptFilterProxyModel *m_proxy = nullptr;
    QComboBox *m_server = nullptr;
    QLineEdit *m_method = nullptr;
    QLineEdit *m_text = nullptr;
    QCheckBox *m_follow = nullptr;
    QCheckBox *m_secrets = nullptr;
    QTableView *m_table = nullptr;
    JsonView *m_detail = nullptr;
    Redactor m_redactor;
    RecordingTranscript *m_recording = nullptr;
    // The filters are counted off the GUI thread; until the answer comes the old rows stay
    // (they go on following) and m_filtering says so.
    QLabel *m_filtering = nullptr;
    QMenu *m_rowMenu = nullptr;
    QAction *m_replay = nullptr;
    QAction *m_copyJson = nullptr;
    const Clock *m_followClock = nullptr;
};

} // namespace Sonde

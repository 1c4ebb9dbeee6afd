// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>

class QCheckBox;
class QLabel;
class QModelIndex;
class QPushButton;
class QTextBrowser;
class QTreeView;

namespace Sonde {

class DoctorFindingModel;
class DoctorFindingStore;
class JsonView;
struct DoctorFinding;

// A server's Doctor tab: what the server breaks of the spec (docs/doctor.md). Run and Stop
// for the active probes (with the step under way, then what the run found and skipped), the
// findings grouped by severity (live ones as the session's messages break a rule, the last
// run's marked as such), and for the selected one the message, the spec's sentence with its
// revision, section and link, the fix, and the request and response it rests on. A live
// finding opens its message in the transcript (double-click, or Open in transcript).
// Thread: GUI. It shows the store and asks; the window starts and stops runs.
class DoctorPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DoctorPanel(const DoctorFindingStore *store, QWidget *parent = nullptr);

    // The server to show; `whyNoRun` non-empty: Run is off and the reason is shown (a
    // proxied client's session has no configuration to connect with).
    void showServer(const QString &server, const QString &whyNoRun);
    QString server() const { return m_server; }
    DoctorFindingModel *model() const { return m_model; }
    // What the run line says now (the step, the last run's summary, or why there is none).
    QString runText() const;
    // Selects the first finding of `checkId`; false when the shown server has none.
    bool selectFinding(const QString &checkId);

Q_SIGNALS:
    // `allowWrites`: also call the tools not marked read-only.
    void runRequested(bool allowWrites);
    void stopRequested();
    // The transcript event a live finding rests on (TranscriptStore::sequence).
    void transcriptRequested(qint64 index);

private:
    void updateRun();
    void showFinding(const QModelIndex &index);
    void openInTranscript(const QModelIndex &index);
    void selectFirstIfNone();
    static QString detailHtml(const DoctorFinding &finding);

    const DoctorFindingStore *m_store;
    DoctorFindingModel *m_model = nullptr;
    QString m_server;
    QString m_whyNoRun;
    QPushButton *m_run = nullptr;
    QPushButton *m_stop = nullptr;
    QCheckBox *m_writes = nullptr;
    QLabel *m_runState = nullptr;
    QTreeView *m_tree = nullptr;
    QTextBrowser *m_detail = nullptr;
    QPushButton *m_open = nullptr;
    JsonView *m_request = nullptr;
    JsonView *m_response = nullptr;
};

} // namespace Sonde

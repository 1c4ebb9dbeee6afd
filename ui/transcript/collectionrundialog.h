// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QDialog>

#include <memory>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace Sonde {

class CollectionRun;

// Runs a saved collection from the window (File → Run collection…) and shows how it went:
// one row per call (name, passed or failed, milliseconds, the reasons), a summary line, and
// "Save JUnit…" for the same report `sonde-cli run --junit` writes. The run has its own
// CoreHost (CollectionRun), so the window's sessions are not touched. Thread: GUI.
class CollectionRunDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CollectionRunDialog(QWidget *parent = nullptr);
    ~CollectionRunDialog() override;

    // Asks for a collection file (open(), not exec()) and runs it in a new dialog.
    static void chooseAndRun(QWidget *parent);
    // Loads the collection and starts it; a file that is not one is said in the summary.
    bool start(const QString &path);
    bool isFinished() const { return m_finished; }
    QString summaryText() const;
    bool saveJUnit(const QString &path, QString *error) const;

Q_SIGNALS:
    // The run is over (or never started): the rows and the summary are final.
    void runFinished();

private:
    void addRow(int index);
    void finish();

    std::unique_ptr<CollectionRun> m_run;
    QDateTime m_startedAt;
    qint64 m_startedMs = 0;
    qint64 m_totalMs = 0;
    bool m_finished = false;
    QLabel *m_summary;
    QTreeWidget *m_rows;
    QPushButton *m_saveJUnit;
};

} // namespace Sonde

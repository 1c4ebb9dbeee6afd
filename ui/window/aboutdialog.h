// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace Sonde {

// Help → About Sonde: Sonde's version, Qt's at run time and at compile time, the JSON
// highlighter (KSyntaxHighlighting's version, or the built-in one when built without KF6), the
// licence and homepage (from the AppStream metainfo), the protocol revisions Sonde speaks (from
// the protocol code), where this run keeps its settings and history and where its logs go, and
// "Copy for a bug report": all of it as plain text, with no secret in it.
// Thread: GUI. Opened with open(), deletes itself when closed.
class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    // Where this run keeps things. An empty history: this run records none.
    struct Paths
    {
        QString settings;
        QString history;
    };

    explicit AboutDialog(const Paths &paths, QWidget *parent = nullptr);
    // The lines it shows, also for a bug report.
    static QStringList versionLines();
    // Newest first: the sessionless revision, then those spoken over a session.
    static QStringList protocolRevisions();
    static QString historyText(const Paths &paths);
    // Sonde writes no log file: where its messages go instead.
    static QString logsText();
    // What Copy for a bug report puts on the clipboard. The home folder is written "~": a
    // report is pasted into public trackers.
    static QString bugReport(const Paths &paths);
};

} // namespace Sonde

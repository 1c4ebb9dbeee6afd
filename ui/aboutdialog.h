// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace Sonde {

// Help → About Sonde: Sonde's version, Qt's at run time and at compile time, and the JSON
// highlighter (KSyntaxHighlighting's version, or the built-in one when built without KF6).
// Thread: GUI. Opened with open(), deletes itself when closed.
class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);
    // The lines it shows, also for a bug report.
    static QStringList versionLines();
};

} // namespace Sonde

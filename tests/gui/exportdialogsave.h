// SPDX-License-Identifier: MIT
#pragma once

// The export dialog counts and writes on its job's thread: what a test waits for, with
// signals, not sleeps.
#include "transcript/exportdialog.h"

#include <QEventLoop>
#include <QSignalSpy>
#include <QTimer>

namespace SondeTest {

// Waits until the dialog has counted its records (its text says what the file holds).
inline bool waitCounted(Sonde::ExportDialog &d, int timeoutMs = 20'000)
{
    if (d.isCounted())
        return true;
    QSignalSpy counted(&d, &Sonde::ExportDialog::counted);
    return counted.wait(timeoutMs) || d.isCounted();
}

// Waits until a write under way ended; its error (empty when written), or why none ended.
inline QString waitWritten(Sonde::ExportDialog &d, int timeoutMs = 60'000)
{
    QString error = QStringLiteral("no answer from the export within %1 ms").arg(timeoutMs);
    QEventLoop loop;
    QObject::connect(&d, &Sonde::ExportDialog::saved, &loop, [&] {
        error.clear();
        loop.quit();
    });
    QObject::connect(&d, &Sonde::ExportDialog::failed, &loop,
                     [&](const QString &, const QString &why) {
                         error = why;
                         loop.quit();
                     });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (d.isWriting())
        loop.exec();
    return error;
}

// Counts, saves to `path` and waits for the file: empty when it was written, else why not.
inline QString saveAndWait(Sonde::ExportDialog &d, const QString &path)
{
    if (!waitCounted(d))
        return QStringLiteral("the export dialog did not count its records");
    QString error;
    if (!d.save(path, &error))
        return error;
    return waitWritten(d);
}

} // namespace SondeTest

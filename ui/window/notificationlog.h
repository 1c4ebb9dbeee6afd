// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QPlainTextEdit>
#include <QStringList>

class QTimer;

namespace Sonde {

// The Log tab: one line per server notification (log messages as "[level] text"), of every
// server. Lines are appended in batches: laying out one line per notification stalls the
// GUI thread when a server floods (10,000 per second); when more than MaxBatch wait, the
// oldest are left out and counted (the transcript keeps every message anyway). Thread: GUI.
class NotificationLog : public QPlainTextEdit
{
    Q_OBJECT
public:
    static constexpr int MaxBatch = 500;

    explicit NotificationLog(QWidget *parent = nullptr);
    void append(const ServerNotification &n);

private:
    void flush();

    QStringList m_pending;
    QTimer *m_timer = nullptr;
    int m_skipped = 0;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "window/notificationlog.h"

#include "window/textdisplay.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

NotificationLog::NotificationLog(QWidget *parent) : QPlainTextEdit(parent)
{
    setObjectName(u"logView"_s);
    setAccessibleName(tr("Server notifications"));
    setReadOnly(true);
    setMaximumBlockCount(10'000);
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &NotificationLog::flush);
}

void NotificationLog::append(const ServerNotification &n)
{
    // A log message's text as it is; anything else as its params, written only then (a flood
    // is thousands of these a second on the GUI thread).
    const QJsonValue logData = n.params.value("data"_L1);
    const bool message = n.method == "notifications/message"_L1;
    QString text = message && logData.isString()
                       ? logData.toString()
                       : QString::fromUtf8(QJsonDocument(n.params).toJson(QJsonDocument::Compact));
    if (message)
        text = u"[%1] %2"_s.arg(n.params.value("level"_L1).toString(), text);
    m_pending.append(TextDisplay::logLine(
        u"%1 %2 %3 %4"_s.arg(QDateTime::fromMSecsSinceEpoch(n.timeMs).toString(u"HH:mm:ss.zzz"_s),
                             n.server, n.method, text)));
    if (m_pending.size() > MaxBatch) {
        m_skipped += int(m_pending.size()) - MaxBatch;
        m_pending.erase(m_pending.begin(), m_pending.end() - MaxBatch);
    }
    if (!m_timer->isActive())
        m_timer->start();
}

void NotificationLog::flush()
{
    if (m_skipped > 0)
        appendPlainText(tr("… %n more notification(s) not shown here: the Transcript has them all",
                           nullptr, m_skipped));
    m_skipped = 0;
    if (!m_pending.isEmpty())
        appendPlainText(m_pending.join(u'\n'));
    m_pending.clear();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "history/offlinehistoryopener.h"

#include "application/history/offlinehistory.h"
#include "history/historypanel.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

OfflineHistoryOpener::OfflineHistoryOpener(HistoryPanel *panel, QWidget *window)
    : QObject(window), m_panel(panel), m_window(window), m_poll(new QTimer(this))
{
    // The reader publishes its position; the bar polls it, so a fast read sends no signals.
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (!m_progress || m_histories.isEmpty())
            return;
        const OfflineHistory *h = m_histories.last();
        const qint64 size = qMax<qint64>(1, h->fileSize());
        m_progress->setValue(int(qMin<qint64>(1000, h->bytesRead() * 1000 / size)));
    });
    if (panel)
        connect(panel, &HistoryPanel::closeRequested, this, &OfflineHistoryOpener::close);
}

OfflineHistoryOpener::~OfflineHistoryOpener()
{
    // The panel may outlive this object's catalogs by a moment: take them out first.
    for (OfflineHistory *h : std::as_const(m_histories))
        if (h->catalog() && m_panel)
            m_panel->removeSource(h->catalog());
}

bool OfflineHistoryOpener::close(const HistoryCatalog *catalog)
{
    OfflineHistory *history = nullptr;
    for (OfflineHistory *h : std::as_const(m_histories))
        if (catalog && h->catalog() == catalog)
            history = h;
    if (!history)
        return false;
    // Out of the tab first: its table reads through the catalog until another source shows.
    if (m_panel)
        m_panel->removeSource(history->catalog());
    Q_EMIT aboutToClose(catalog);
    m_histories.removeOne(history);
    const QString name = history->name();
    delete history; // the catalog's connection, then the temporary folder and its file
    Q_EMIT closed(name);
    return true;
}

void OfflineHistoryOpener::choose()
{
    auto *dialog = new QFileDialog(m_window, tr("Open transcript"), QString(),
                                   tr("Transcripts (*.jsonl *.json);;All files (*)"));
    dialog->setObjectName(u"openTranscriptDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &OfflineHistoryOpener::open);
    dialog->open();
}

void OfflineHistoryOpener::open(const QString &path)
{
    if (!m_histories.isEmpty() && m_histories.last()->isReading()) {
        fail(tr("Another file is still being opened"));
        return;
    }
    auto *history = new OfflineHistory(this);
    QString error;
    if (!history->start(path, &error)) {
        delete history;
        fail(error);
        return;
    }
    m_histories.append(history);
    connect(history, &OfflineHistory::finished, this,
            [this, history](bool ok, const QString &message) { finish(history, ok, message); });
    m_progress = new QProgressDialog(tr("Reading %1…").arg(history->name()), tr("Cancel"), 0, 1000,
                                     m_window);
    m_progress->setObjectName(u"openTranscriptProgress"_s);
    m_progress->setWindowTitle(tr("Open transcript"));
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumDuration(400); // a small file opens without a flash of a dialog
    m_progress->setAutoReset(false);
    m_progress->setAutoClose(false);
    m_progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_progress, &QProgressDialog::canceled, history, &OfflineHistory::cancel);
    m_progress->setValue(0);
    m_poll->start();
}

void OfflineHistoryOpener::finish(OfflineHistory *history, bool ok, const QString &message)
{
    m_poll->stop();
    if (m_progress) {
        // Closing a progress dialog emits canceled(): the read is over, nothing to cancel.
        disconnect(m_progress, nullptr, history, nullptr);
        m_progress->close();
    }
    if (!ok) {
        m_histories.removeOne(history);
        history->deleteLater();
        fail(message);
        return;
    }
    if (m_panel)
        m_panel->addSource(history->name(), history->catalog());
    Q_EMIT opened(history->name(), message);
}

void OfflineHistoryOpener::fail(const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Open transcript"), message,
                                QMessageBox::Ok, m_window);
    box->setObjectName(u"openTranscriptError"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    Q_EMIT failed(message);
}

} // namespace Sonde

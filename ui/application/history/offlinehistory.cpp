// SPDX-License-Identifier: MIT
#include "application/history/offlinehistory.h"

#include "application/history/storehistorycatalog.h"
#include "historystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>

using namespace Qt::StringLiterals;

namespace Sonde {

struct OfflineHistory::Shared
{
    std::atomic<bool> cancelled = false;
    std::atomic<qint64> bytesRead = 0;
    HistoryImporter::Result result; // written by the reader thread, read after it finished
};

namespace {

// The file as the importer reads it: atEnd() is asked once a line, so it is where the
// progress is published and where a cancel ends the read (the importer then stops as at the
// end of the file).
class ProgressFile final : public QFile
{
public:
    ProgressFile(const QString &path, std::shared_ptr<OfflineHistory::Shared> shared)
        : QFile(path), m_shared(std::move(shared))
    {
    }
    bool atEnd() const override
    {
        m_shared->bytesRead.store(pos(), std::memory_order_relaxed);
        return m_shared->cancelled.load(std::memory_order_relaxed) || QFile::atEnd();
    }

private:
    std::shared_ptr<OfflineHistory::Shared> m_shared;
};

QString temporaryParent()
{
    // The cache folder when there is one (a large file's history can be large too).
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return !cache.isEmpty() && QDir().mkpath(cache) ? cache : QDir::tempPath();
}

} // namespace

OfflineHistory::OfflineHistory(QObject *parent)
    : QObject(parent), m_shared(std::make_shared<Shared>())
{
}

OfflineHistory::~OfflineHistory()
{
    if (m_thread) {
        m_shared->cancelled = true;
        m_thread->wait();
        delete m_thread;
    }
    m_catalog.reset(); // its connection goes before the folder holding the file
}

QString OfflineHistory::name() const
{
    return QFileInfo(m_path).fileName();
}

qint64 OfflineHistory::bytesRead() const
{
    return m_shared->bytesRead.load(std::memory_order_relaxed);
}

const HistoryImporter::Result &OfflineHistory::result() const
{
    return m_shared->result;
}

HistoryCatalog *OfflineHistory::catalog() const
{
    return m_catalog.get();
}

QString OfflineHistory::databasePath() const
{
    return m_dir ? m_dir->filePath(u"history.sqlite"_s) : QString();
}

bool OfflineHistory::start(const QString &path, QString *error)
{
    Q_ASSERT(!m_thread && !m_catalog);
    QFile probe(path);
    if (!probe.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(path, probe.errorString());
        return false;
    }
    QString why;
    const auto format = TranscriptFileReader::formatOf(probe, &why);
    if (!format) {
        *error = tr("%1 is not a transcript: %2").arg(QFileInfo(path).fileName(), why);
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>(temporaryParent() + u"/opened-XXXXXX"_s);
    if (!m_dir->isValid()) {
        *error =
            tr("No temporary folder for the opened file's history: %1").arg(m_dir->errorString());
        return false;
    }
    m_path = path;
    m_format = *format;
    m_size = probe.size();
    const QString db = databasePath();
    m_thread = QThread::create([shared = m_shared, db, path, format = *format] {
        HistoryStore store;
        QString failure;
        if (!store.open(db, &failure, u"open "_s + path)) {
            shared->result.error = failure;
            return;
        }
        ProgressFile in(path, shared);
        if (!in.open(QIODevice::ReadOnly)) {
            shared->result.error = in.errorString();
            return;
        }
        shared->result = TranscriptFileReader::importInto(
            in, format, path, store, [&shared] { return shared->cancelled.load(); });
    });
    m_thread->setObjectName(u"sonde-open-transcript"_s);
    connect(m_thread, &QThread::finished, this, &OfflineHistory::onThreadFinished);
    m_thread->start();
    return true;
}

void OfflineHistory::cancel()
{
    m_shared->cancelled = true;
}

void OfflineHistory::onThreadFinished()
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    const HistoryImporter::Result &r = m_shared->result;
    const QString file = name();
    if (m_shared->cancelled) {
        Q_EMIT finished(false, tr("Opening %1 was cancelled").arg(file));
        return;
    }
    if (!r.error.isEmpty()) {
        Q_EMIT finished(false, tr("%1 was not opened: %2").arg(file, r.error));
        return;
    }
    if (r.imported == 0) {
        Q_EMIT finished(false, r.reasons.isEmpty()
                                   ? tr("%1 holds no transcript records").arg(file)
                                   : tr("%1 holds no transcript records: %2")
                                         .arg(file, QStringList(r.reasons.mid(0, 3)).join(u"; ")));
        return;
    }
    auto catalog = std::make_unique<StoreHistoryCatalog>();
    QString error;
    if (!catalog->open(databasePath(), &error)) {
        Q_EMIT finished(false,
                        tr("%1 was read but its history cannot be opened: %2").arg(file, error));
        return;
    }
    m_catalog = std::move(catalog);
    QString message =
        tr("%1: %n event(s) read", nullptr, int(qMin<qint64>(r.imported, INT_MAX))).arg(file);
    if (r.skipped)
        message += tr(", %n line(s) skipped (%1)", nullptr, int(qMin<qint64>(r.skipped, INT_MAX)))
                       .arg(r.reasons.value(0));
    Q_EMIT finished(true, message);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptexportjob.h"

#include "historyexportsource.h"
#include "historystore.h"
#include "transcript/exportsource.h"
#include "transport/otlpsender.h"

#include <QElapsedTimer>
#include <QSaveFile>
#include <QThread>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// How often the bar moves: often enough to look alive, rarely enough to cost nothing.
constexpr qint64 ProgressEveryMs = 100;

} // namespace

TranscriptExportWorker::TranscriptExportWorker(ExportInput input,
                                               std::shared_ptr<const std::atomic<bool>> cancelled)
    : m_input(std::move(input)), m_cancelled(std::move(cancelled))
{
}

TranscriptExportWorker::~TranscriptExportWorker() = default;

std::unique_ptr<ExportSource> TranscriptExportWorker::source(QString *error)
{
    if (!m_input.isHistory() && !m_input.events.isEmpty())
        return std::make_unique<EventListExportSource>(m_input.events);
    if (!m_input.isHistory())
        return std::make_unique<ListExportSource>(m_input.records);
    if (!m_store) {
        auto store = std::make_unique<HistoryStore>();
        if (!store->open(m_input.historyPath, error))
            return nullptr;
        m_store = std::move(store);
    }
    auto history = std::make_unique<HistoryExportSource>(*m_store, m_input.filter);
    // Pinned at the first reading (the count): the file then holds what the dialog said it
    // would, however long the recording went on between the count and Save.
    m_input.filter = history->filter();
    return history;
}

void TranscriptExportWorker::count()
{
    Q_ASSERT(QThread::currentThread() == thread());
    ExportCountAnswer answer;
    if (const std::unique_ptr<ExportSource> s = source(&answer.error))
        TranscriptExport::count(*s, &answer.tally, &answer.error,
                                [this](qint64) { return !m_cancelled->load(); });
    Q_EMIT counted(answer);
}

void TranscriptExportWorker::write(const ExportWriteRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    ExportWriteAnswer answer;
    answer.path = request.path;
    const std::unique_ptr<ExportSource> base = source(&answer.error);
    if (!base) {
        Q_EMIT written(answer);
        return;
    }
    // Configured values are masked before the export's own patterns and session ids.
    const bool mask = request.options.redact && !request.secrets.knownValues().isEmpty();
    const MaskedExportSource masked(*base, request.secrets);
    const ExportSource &in = mask ? static_cast<const ExportSource &>(masked) : *base;

    // Written beside the file and renamed over it at the end: a failed or cancelled export
    // leaves the file as it was.
    QSaveFile out(request.path);
    if (!out.open(QIODevice::WriteOnly)) {
        answer.error = u"cannot write %1: %2"_s.arg(request.path, out.errorString());
        Q_EMIT written(answer);
        return;
    }
    QElapsedTimer since;
    since.start();
    const auto progress = [&](qint64 read) {
        if (since.elapsed() >= ProgressEveryMs) {
            since.restart();
            Q_EMIT progressed(read, out.pos());
        }
        return !m_cancelled->load();
    };
    if (!TranscriptExport::write(request.format, in, request.options, out, &answer.error,
                                 request.server, progress, &answer.counts)) {
        out.cancelWriting();
        Q_EMIT written(answer);
        return;
    }
    answer.bytes = out.pos();
    if (!out.commit())
        answer.error = u"cannot write %1: %2"_s.arg(request.path, out.errorString());
    else if (request.readBackBytes > 0)
        OtlpSender::readDocument(request.path, request.readBackBytes, &answer.document,
                                 &answer.readBackError);
    Q_EMIT written(answer);
}

TranscriptExportJob::TranscriptExportJob(ExportInput input, QObject *parent)
    : QObject(parent), m_input(std::move(input))
{
    qRegisterMetaType<ExportCountAnswer>();
    qRegisterMetaType<ExportWriteRequest>();
    qRegisterMetaType<ExportWriteAnswer>();
}

TranscriptExportJob::~TranscriptExportJob()
{
    if (!m_thread)
        return;
    // What runs stops at its next progress call (every 4,096 records); a write in progress
    // leaves no file behind.
    m_cancelled->store(true);
    m_thread->quit();
    m_thread->wait();
}

void TranscriptExportJob::start()
{
    Q_ASSERT(!m_busy);
    m_busy = true;
    m_cancelled->store(false);
    if (m_thread)
        return;
    m_thread = new QThread(this);
    m_thread->setObjectName(u"sonde-export"_s);
    m_worker = new TranscriptExportWorker(m_input, m_cancelled);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TranscriptExportWorker::counted, this, [this](const ExportCountAnswer &a) {
        m_busy = false;
        Q_EMIT counted(a);
    });
    connect(m_worker, &TranscriptExportWorker::progressed, this, &TranscriptExportJob::progressed);
    connect(m_worker, &TranscriptExportWorker::written, this, [this](const ExportWriteAnswer &a) {
        m_busy = false;
        Q_EMIT written(a);
    });
    m_thread->start();
}

void TranscriptExportJob::count()
{
    start();
    QMetaObject::invokeMethod(m_worker, &TranscriptExportWorker::count, Qt::QueuedConnection);
}

void TranscriptExportJob::write(const ExportWriteRequest &request)
{
    start();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, request] { worker->write(request); }, Qt::QueuedConnection);
}

void TranscriptExportJob::cancel()
{
    m_cancelled->store(true);
}

} // namespace Sonde

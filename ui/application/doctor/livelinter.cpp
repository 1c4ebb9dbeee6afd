// SPDX-License-Identifier: MIT
#include "application/doctor/livelinter.h"

#include "doctor/messagelinter.h"

#include <QThread>

#include <limits>

namespace Sonde {

struct LiveLinter::Lints
{
    struct Server
    {
        MessageLinter linter;
        quint64 epoch = 0;
    };
    QHash<QString, Server> servers;
};

LiveLinter::LiveLinter(QObject *parent)
    : QObject(parent), m_thread(new QThread), m_context(new QObject),
      m_lints(std::make_unique<Lints>())
{
    m_thread->setObjectName(QStringLiteral("sonde-doctor-lint"));
    m_context->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread->start();
}

LiveLinter::~LiveLinter()
{
    // The thread only lints what is queued: quitting it waits for at most one batch.
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

template <typename F> void LiveLinter::post(F &&f)
{
    QMetaObject::invokeMethod(m_context, std::forward<F>(f), Qt::QueuedConnection);
}

void LiveLinter::watch(const QString &server, bool stdio)
{
    Q_ASSERT(QThread::currentThread() == thread());
    auto it = m_epochs.find(server);
    if (it == m_epochs.end())
        it = m_epochs.insert(server, ++m_nextEpoch);
    post([lints = m_lints.get(), server, stdio, epoch = it.value()] {
        Lints::Server &s = lints->servers[server];
        if (s.epoch != epoch)
            s = Lints::Server{MessageLinter(stdio), epoch};
        else
            s.linter.setStdio(stdio);
    });
}

void LiveLinter::forget(const QString &server)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_epochs.remove(server))
        return;
    post([lints = m_lints.get(), server] { lints->servers.remove(server); });
}

void LiveLinter::feed(const TranscriptBatch &batch, qint64 firstIndex)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (batch.isEmpty())
        return;
    // The list is implicitly shared: the lint thread reads the frames the store holds.
    post([this, lints = m_lints.get(), batch, firstIndex] {
        QHash<QString, QList<DoctorFinding>> found;
        for (qsizetype i = 0; i < batch.size(); ++i) {
            const TranscriptEvent &e = batch.at(i);
            const auto it = lints->servers.find(e.server);
            if (it == lints->servers.end())
                continue;
            QList<DoctorFinding> news = it->linter.feed(e, firstIndex + i);
            if (!news.isEmpty())
                found[e.server].append(std::move(news));
        }
        const qint64 next = firstIndex + batch.size();
        QHash<QString, quint64> epochs;
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            epochs.insert(it.key(), lints->servers.constFind(it.key())->epoch);
        // Back on the GUI thread; dropped with this object if it is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, found = std::move(found), epochs = std::move(epochs), next] {
                for (auto it = found.cbegin(); it != found.cend(); ++it)
                    deliver(it.key(), epochs.value(it.key()), it.value());
                Q_EMIT linted(next);
            },
            Qt::QueuedConnection);
    });
}

void LiveLinter::deliver(const QString &server, quint64 epoch, const QList<DoctorFinding> &findings)
{
    if (m_epochs.value(server) == epoch)
        Q_EMIT found(server, findings);
}

} // namespace Sonde

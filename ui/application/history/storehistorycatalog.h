// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/historycatalog.h"
#include "historystore.h"

#include <memory>

namespace Sonde {

// The History tab's catalog over the SQLite history: a read-only connection of its own on the
// GUI thread (WAL: it never blocks the recorder's writes on its thread). Pages are read by
// offset in id order.
class StoreHistoryCatalog final : public HistoryCatalog
{
public:
    // Opens `path` to read; false with the reason.
    bool open(const QString &path, QString *error);

    QString path() const { return m_store ? m_store->path() : QString(); }

    QStringList servers() const override;
    QList<RecordedSession> sessions(const QString &server) const override;
    std::unique_ptr<TranscriptPageSource> sessionEvents(qint64 sessionId) const override;
    std::unique_ptr<TranscriptPageSource> search(const QString &text,
                                                 const QString &server) const override;
    bool clear(QString *error) override;
    QString historyPath() const override { return path(); }
    std::unique_ptr<TranscriptPageSource>
    pagesOf(const TranscriptFilterAnswer &answer) const override;

private:
    std::unique_ptr<TranscriptPageSource> source(const HistoryFilter &filter) const;

    std::shared_ptr<HistoryStore> m_store;
};

} // namespace Sonde

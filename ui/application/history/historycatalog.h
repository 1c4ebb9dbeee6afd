// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/transcriptpagesource.h"
#include "historyfilter.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>

namespace Sonde {

struct TranscriptFilterAnswer;

// One recorded session (one generation of one server) as the history lists it.
struct RecordedSession
{
    qint64 id = 0;
    QString server;
    int generation = 0;
    qint64 startedMs = 0;
    qint64 endedMs = 0; // 0 while it is still recorded to
    qint64 events = 0;
    QString era;             // "initialize", "2026-07-28" (before: "legacy", "modern"), or empty
    QString protocolVersion; // as negotiated, when it was recorded
};

// What the History tab reads: the recorded sessions of a server, their events a page at a
// time, and a search over everything. Implemented over the SQLite store (sonde_history);
// tests give their own. Thread: GUI (a store implementation reads through its own connection).
class HistoryCatalog
{
public:
    virtual ~HistoryCatalog() = default;
    // Every server with something recorded, by name (an opened file's own list).
    virtual QStringList servers() const = 0;
    // Newest first.
    virtual QList<RecordedSession> sessions(const QString &server) const = 0;
    virtual std::unique_ptr<TranscriptPageSource> sessionEvents(qint64 sessionId) const = 0;
    // The events whose method, tool or payload holds `text`; `server` empty for all servers.
    virtual std::unique_ptr<TranscriptPageSource> search(const QString &text,
                                                         const QString &server) const = 0;
    // Everything recorded, gone; false with the reason.
    virtual bool clear(QString *error) = 0;

    // A catalog over a SQLite history names its file: a session's events and a search's hits
    // are then counted off the GUI thread (TranscriptFilterQuery, over a connection of its
    // own, with sessionFilter() or searchFilter()) and shown through pagesOf(), which seeks
    // each page by id from the answer: at a million events the count takes up to a second
    // and a page in the middle half of one with OFFSET. Empty (the default): sessionEvents()
    // and search() are asked, on the GUI thread.
    virtual QString historyPath() const { return {}; }
    static HistoryFilter sessionFilter(qint64 sessionId);
    static HistoryFilter searchFilter(const QString &text, const QString &server);
    virtual std::unique_ptr<TranscriptPageSource> pagesOf(const TranscriptFilterAnswer &) const
    {
        return nullptr;
    }
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::RecordedSession)

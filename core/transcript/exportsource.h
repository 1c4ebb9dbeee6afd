// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace Sonde {

// Where an export reads its records (TranscriptEvent::toJson's shape) from, oldest first, as
// many times as the format needs (TranscriptExport reads twice or three times): a list in
// memory, or a history file a page at a time (HistoryExportSource), so that an export of a
// million events holds a page and not the million. A source is read on one thread at a time.
class ExportSource
{
public:
    // Return false to stop the reading (a cancel): read() then returns false too.
    using Each = std::function<bool(const QJsonObject &record)>;

    virtual ~ExportSource() = default;
    // Every record of `server` (every server's when empty) whose "dir" is one of
    // `directions` (any when empty), in the order they were recorded. False when it stopped
    // early: `each` asked to, or the reading failed (then `error` says why).
    virtual bool read(const QString &server, const QStringList &directions, const Each &each,
                      QString *error) const = 0;
};

// The records of a list the caller keeps alive while the source is read.
class ListExportSource final : public ExportSource
{
public:
    explicit ListExportSource(const QList<QJsonObject> &records) : m_records(records) {}
    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;

private:
    const QList<QJsonObject> &m_records;
};

// The records of transcript events (TranscriptEvent::toJson), made as they are read: the live
// transcript's events are handed over as they are (an implicitly shared list, so the copy
// costs nothing on the thread that gives it) and turned into records on the export's thread.
class EventListExportSource final : public ExportSource
{
public:
    explicit EventListExportSource(const TranscriptBatch &events) : m_events(events) {}
    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;

private:
    const TranscriptBatch &m_events;
};

// Another source's records with the values `secrets` knows masked first (each server's
// configured env and header values), before the export's own patterns and session ids.
class MaskedExportSource final : public ExportSource
{
public:
    MaskedExportSource(const ExportSource &inner, const Redactor &secrets)
        : m_inner(inner), m_secrets(secrets)
    {
    }
    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;

private:
    const ExportSource &m_inner;
    Redactor m_secrets;
};

} // namespace Sonde

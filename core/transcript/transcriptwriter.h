// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

#include <QFile>
#include <QStringList>

namespace Sonde {

// Appends transcript events to a JSON Lines file, one compact object per line, redacting
// secrets unless told otherwise. Thread: the front end's (it receives batches as values).
class TranscriptWriter
{
public:
    bool open(const QString &path, QString *errorMessage);
    void setRedactSecrets(bool redact) { m_redact = redact; }
    void addSessionId(const QString &id);
    void write(const TranscriptBatch &batch);
    void flush();
    qint64 eventsWritten() const { return m_written; }

private:
    QFile m_file;
    bool m_redact = true;
    QStringList m_sessionIds;
    qint64 m_written = 0;
};

} // namespace Sonde

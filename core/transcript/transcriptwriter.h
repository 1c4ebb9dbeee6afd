// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"

#include <QFile>

namespace Sonde {

// Appends transcript events to a JSON Lines file, one compact object per line, redacting
// secrets (the patterns, the servers' configured values given to addSecrets, the session
// ids seen) unless told otherwise. Each batch reaches the file as it is written, in whole
// lines, so the file is complete up to the last batch whatever ends the process. Thread:
// the front end's (it receives batches as values).
class TranscriptWriter
{
public:
    bool open(const QString &path, QString *errorMessage);
    void setRedactSecrets(bool redact) { m_redact = redact; }
    void addSecrets(const ServerConfig &config) { m_redactor.addSecrets(config); }
    void addSessionId(const QString &id) { m_redactor.addSessionId(id); }
    void write(const TranscriptBatch &batch);
    void flush();
    qint64 eventsWritten() const { return m_written; }

private:
    QFile m_file;
    bool m_redact = true;
    Redactor m_redactor;
    qint64 m_written = 0;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transcript/transcriptwriter.h"

#include "transcript/redactor.h"

#include <QJsonDocument>

namespace Sonde {

bool TranscriptWriter::open(const QString &path, QString *errorMessage)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (errorMessage)
            *errorMessage = m_file.errorString();
        return false;
    }
    return true;
}

void TranscriptWriter::addSessionId(const QString &id)
{
    if (!id.isEmpty() && !m_sessionIds.contains(id))
        m_sessionIds.append(id);
}

void TranscriptWriter::write(const TranscriptBatch &batch)
{
    if (!m_file.isOpen())
        return;
    for (const TranscriptEvent &e : batch) {
        QByteArray line = QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
        if (m_redact)
            line = Redactor::redact(QString::fromUtf8(line), m_sessionIds).toUtf8();
        line.append('\n');
        m_file.write(line);
        ++m_written;
    }
}

void TranscriptWriter::flush()
{
    if (m_file.isOpen())
        m_file.flush();
}

} // namespace Sonde

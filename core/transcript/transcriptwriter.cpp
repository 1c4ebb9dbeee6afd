// SPDX-License-Identifier: MIT
#include "transcript/transcriptwriter.h"

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

void TranscriptWriter::write(const TranscriptBatch &batch)
{
    if (!m_file.isOpen())
        return;
    for (const TranscriptEvent &e : batch) {
        QByteArray line = QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
        if (m_redact)
            line = m_redactor.apply(QString::fromUtf8(line)).toUtf8();
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

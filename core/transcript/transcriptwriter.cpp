// SPDX-License-Identifier: MIT
#include "transcript/transcriptwriter.h"

#include <QJsonDocument>

namespace Sonde {

bool TranscriptWriter::open(const QString &path, QString *errorMessage)
{
    m_file.setFileName(path);
    // Unbuffered, and one write per batch (write() below): what a crash or a kill -9 leaves
    // is every batch written before it, whole lines only. At one batch per 50 ms that is at
    // most 20 system calls a second.
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
        if (errorMessage)
            *errorMessage = m_file.errorString();
        return false;
    }
    return true;
}

void TranscriptWriter::write(const TranscriptBatch &batch)
{
    if (!m_file.isOpen() || batch.isEmpty())
        return;
    QByteArray lines;
    for (const TranscriptEvent &e : batch) {
        QByteArray line = QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
        if (m_redact)
            line = m_redactor.apply(QString::fromUtf8(line)).toUtf8();
        lines.append(line);
        lines.append('\n');
    }
    m_file.write(lines);
    m_written += batch.size();
}

void TranscriptWriter::flush()
{
    if (m_file.isOpen())
        m_file.flush();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transcriptfilereader.h"

#include "historystore.h"
#include "inspectorexportreader.h"

#include <QFileInfo>
#include <QIODevice>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Control bytes that no JSON text holds (JSON allows tab, line feed, carriage return and
// spaces between tokens; any other below 0x20 appears only escaped inside strings).
bool isBinary(QByteArrayView head)
{
    for (const char c : head) {
        const auto b = uchar(c);
        if (b < 0x20 && b != '\t' && b != '\n' && b != '\r')
            return true;
    }
    return false;
}

} // namespace

std::optional<TranscriptFileReader::Format> TranscriptFileReader::sniff(const QByteArray &head,
                                                                        QString *why)
{
    QByteArrayView text(head);
    if (text.startsWith("\xEF\xBB\xBF")) // a UTF-8 byte order mark, as some editors write
        text = text.sliced(3);
    if (isBinary(text)) {
        *why = u"a binary file, not a transcript (Sonde's JSON Lines or the MCP Inspector's "
               u"JSON export)"_s;
        return std::nullopt;
    }
    const QByteArrayView trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        *why = u"the file is empty"_s;
        return std::nullopt;
    }
    if (trimmed.front() == '[')
        return Format::InspectorJson;
    const qsizetype end = text.indexOf('\n');
    const QByteArray first = (end < 0 ? text : text.first(end)).trimmed().toByteArray();
    if (trimmed.front() == '{' && QJsonDocument::fromJson(first).isObject())
        return Format::SondeJsonl;
    if (trimmed.front() == '{') {
        *why = end < 0 && head.size() >= SniffBytes
                   ? u"line 1 is longer than %1 KiB: not a transcript Sonde can tell"_s.arg(
                         SniffBytes / 1024)
                   : u"line 1 is not a whole JSON object: not Sonde's JSON Lines (a record a "
                     u"line) nor the MCP Inspector's export (a JSON array)"_s;
        return std::nullopt;
    }
    *why = u"neither Sonde's JSON Lines nor the MCP Inspector's JSON export: it starts with "
           u"\"%1\""_s.arg(
               QString::fromUtf8(trimmed.first(qMin<qsizetype>(trimmed.size(), 20)).toByteArray())
                   .simplified());
    return std::nullopt;
}

std::optional<TranscriptFileReader::Format> TranscriptFileReader::formatOf(QIODevice &in,
                                                                           QString *why)
{
    return sniff(in.peek(SniffBytes), why);
}

QString TranscriptFileReader::formatName(Format format)
{
    return format == Format::SondeJsonl ? u"sonde-jsonl"_s : u"inspector-json"_s;
}

HistoryImporter::Result TranscriptFileReader::importInto(QIODevice &in, Format format,
                                                         const QString &fileName,
                                                         HistoryStore &store,
                                                         const std::function<bool()> &cancelled)
{
    if (format == Format::SondeJsonl)
        return HistoryImporter::import(in, store, cancelled);
    HistoryImporter::Result r;
    const QFileInfo info(fileName);
    QString server = InspectorExportReader::serverFromFileName(info.fileName());
    if (server.isEmpty())
        server = info.completeBaseName();
    const InspectorExportReader::Result read = InspectorExportReader::read(in, server);
    if (!read.error.isEmpty()) {
        r.error = read.error;
        return r;
    }
    for (qsizetype at = 0; at < read.records.size(); at += HistoryImporter::BatchSize) {
        if (cancelled && cancelled())
            break;
        const QList<QJsonObject> batch = read.records.mid(at, HistoryImporter::BatchSize);
        if (!store.appendRecords(batch, &r.error))
            return r;
        r.imported += batch.size();
    }
    return r;
}

} // namespace Sonde

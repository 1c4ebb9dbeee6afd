// SPDX-License-Identifier: MIT
#include "historyimporter.h"

#include "historystore.h"
#include "transcript/jsonlexport.h"
#include "wireframerecord.h"

#include <QDateTime>
#include <QIODevice>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

const QStringList Directions{u"send"_s, u"recv"_s, u"stderr"_s, u"event"_s, u"violation"_s};

// The record, or empty with the reason.
QJsonObject recordOf(const QByteArray &line, QString *why)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parse);
    if (!doc.isObject()) {
        *why = doc.isNull() ? u"not JSON: "_s + parse.errorString() : u"not a JSON object"_s;
        return {};
    }
    QJsonObject o = doc.object();
    if (!Directions.contains(o.value("dir"_L1).toString())) {
        *why = u"no \"dir\" of send, recv, stderr, event or violation"_s;
        return {};
    }
    if (!o.contains("t_ms"_L1)) {
        const QDateTime t = QDateTime::fromString(o.value("t"_L1).toString(), Qt::ISODateWithMs);
        if (!t.isValid()) {
            *why = u"no time (\"t_ms\" or \"t\")"_s;
            return {};
        }
        o.insert("t_ms"_L1, t.toMSecsSinceEpoch());
    }
    if (!o.value("server"_L1).isString())
        o.insert("server"_L1, u"imported"_s);
    if (!o.contains("gen"_L1))
        o.insert("gen"_L1, 1);
    return o;
}

} // namespace

HistoryImporter::Result HistoryImporter::import(QIODevice &in, HistoryStore &store,
                                                const std::function<bool()> &cancelled)
{
    Result r;
    QList<HistoryStore::ImportedLine> batch;
    qint64 number = 0;
    const auto skip = [&r, &number](const QString &why) {
        ++r.skipped;
        if (r.skippedLines.size() < 100) {
            r.skippedLines << number;
            r.reasons << u"line %1: %2"_s.arg(number).arg(why);
        }
    };
    // False when the import ends here: cancelled, or the store refused the batch (r.error).
    const auto flush = [&] {
        if (batch.isEmpty())
            return true;
        if (cancelled && cancelled())
            return false;
        if (!store.appendImported(batch, &r.error))
            return false;
        r.imported += batch.size();
        batch.clear();
        return true;
    };
    while (!in.atEnd()) {
        ++number;
        // readLine(n) reads at most n - 1 bytes: one more than the limit tells a line over it.
        QByteArray line = in.readLine(MaxLineBytes + 2);
        if (line.size() > MaxLineBytes && !line.endsWith('\n')) {
            // The rest of the line is read and dropped, so the next line is the next record.
            while (!in.atEnd() && !line.endsWith('\n'))
                line = in.readLine(MaxLineBytes + 2);
            skip(u"longer than the %1 MiB line limit"_s.arg(MaxLineBytes / (1024 * 1024)));
            continue;
        }
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        // The versioned header of the JSONL format, whatever the order of its keys (JsonlExport
        // writes them sorted, so "format" is not first); parsed only when it may be one.
        if (line.contains("\"sonde-transcript\"")) {
            if (const std::optional<QJsonObject> header =
                    JsonlExport::headerOf(QJsonDocument::fromJson(line).object())) {
                // Its records may mean what this build would read differently: none of them
                // is imported, and the import stops there (what came before it is kept).
                if (const QString why = JsonlExport::unreadableVersion(*header); !why.isEmpty()) {
                    if (flush())
                        r.error = u"line %1: %2"_s.arg(number).arg(why);
                    return r;
                }
                continue;
            }
        }
        // A record of today's shape is not parsed (the store reads its frame off its bytes);
        // any other is, and checked.
        if (std::optional<TranscriptEvent> e = WireFrameRecord::eventOfRecordLine(line)) {
            batch.append(std::move(*e));
        } else {
            QString why;
            const QJsonObject record = recordOf(line, &why);
            if (record.isEmpty()) {
                skip(why);
                continue;
            }
            batch.append(record);
        }
        if (batch.size() >= BatchSize && !flush())
            return r;
    }
    flush();
    return r;
}

} // namespace Sonde

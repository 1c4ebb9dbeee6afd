// SPDX-License-Identifier: MIT
#include "transcript/jsonlexport.h"

#include "transcript/exportreader.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

QByteArray JsonlExport::write(const QList<QJsonObject> &records,
                              const TranscriptExport::Options &options)
{
    return ExportReader::documentAsIs(
        records, options, [](ExportReader &in, ExportOutput &out) { return write(in, out); });
}

bool JsonlExport::write(ExportReader &in, ExportOutput &out)
{
    QStringList servers;
    qint64 events = 0;
    if (!in.read([&](const QJsonObject &r) {
            const QString s = r.value("server"_L1).toString();
            if (!servers.contains(s))
                servers.append(s);
            ++events;
            return true;
        }))
        return false;
    const TranscriptExport::Options &options = in.options();
    const QJsonObject header{
        {"format"_L1, QLatin1StringView(FormatName)},
        {"version"_L1, Version},
        {"events"_L1, events},
        {"servers"_L1, QJsonArray::fromStringList(servers)},
        {"redacted"_L1, options.redact},
        {"session_ids"_L1, options.includeSessionIds ? u"included"_s : u"masked"_s},
        {"payloads"_L1, options.includePayloads}};
    out.put(QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n');
    return in.read([&](const QJsonObject &r) {
        out.put(QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n');
        return true;
    });
}

std::optional<QJsonObject> JsonlExport::headerOf(const QJsonObject &firstLine)
{
    if (firstLine.value("format"_L1).toString() != QLatin1StringView(FormatName))
        return std::nullopt;
    return firstLine;
}

} // namespace Sonde

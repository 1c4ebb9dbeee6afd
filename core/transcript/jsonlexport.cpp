// SPDX-License-Identifier: MIT
#include "transcript/jsonlexport.h"

#include "transcript/exportreader.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

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

QString JsonlExport::unreadableVersion(const QJsonObject &header)
{
    const QJsonValue v = header.value("version"_L1);
    const double version = v.toDouble(-1);
    if (!v.isDouble() || version < 1 || version != std::floor(version))
        return u"its header's \"version\" is not a version number (this Sonde reads %1 "
               u"versions 1 to %2)"_s.arg(QLatin1StringView(FormatName))
                   .arg(Version);
    if (version > Version)
        return u"it is %1 version %2, newer than this Sonde reads (1 to %3): a newer Sonde "
               u"reads it"_s.arg(QLatin1StringView(FormatName))
                   .arg(qint64(version))
                   .arg(Version);
    return {};
}

} // namespace Sonde

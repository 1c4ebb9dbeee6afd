// SPDX-License-Identifier: MIT
#include "transcript/jsonlexport.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

QByteArray JsonlExport::write(const QList<QJsonObject> &records,
                              const TranscriptExport::Options &options)
{
    QStringList servers;
    for (const QJsonObject &r : records) {
        const QString s = r.value("server"_L1).toString();
        if (!servers.contains(s))
            servers.append(s);
    }
    const QJsonObject header{
        {"format"_L1, QLatin1StringView(FormatName)},
        {"version"_L1, Version},
        {"events"_L1, records.size()},
        {"servers"_L1, QJsonArray::fromStringList(servers)},
        {"redacted"_L1, options.redact},
        {"session_ids"_L1, options.includeSessionIds ? u"included"_s : u"masked"_s},
        {"payloads"_L1, options.includePayloads}};
    QByteArray out = QJsonDocument(header).toJson(QJsonDocument::Compact);
    out.append('\n');
    for (const QJsonObject &r : records) {
        out.append(QJsonDocument(r).toJson(QJsonDocument::Compact));
        out.append('\n');
    }
    return out;
}

std::optional<QJsonObject> JsonlExport::headerOf(const QJsonObject &firstLine)
{
    if (firstLine.value("format"_L1).toString() != QLatin1StringView(FormatName))
        return std::nullopt;
    return firstLine;
}

} // namespace Sonde

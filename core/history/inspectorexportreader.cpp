// SPDX-License-Identifier: MIT
#include "inspectorexportreader.h"

#include <QDateTime>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

using namespace Qt::StringLiterals;

// The shapes read here are the Inspector's own types, as of its 2.3.0 release
// (github.com/modelcontextprotocol/inspector, main at 86d5f58e):
// - core/mcp/types.ts: `MessageEntry {id, timestamp: Date, direction: "request" | "response" |
//   "notification", origin?: "client" | "server", message, response?, duration? (ms),
//   clientError?}`, `StderrLogEntry {timestamp, message}`, `FetchRequestEntry {id, timestamp,
//   method, url, requestHeaders, ...}`;
// - clients/web/src/components/elements/LogEntry/LogEntry.tsx: `LogEntryData {receivedAt,
//   params}`;
// - clients/web/src/App.tsx (onExportProtocol, onExportLogs, onExportConsole,
//   onExportNetwork): `JSON.stringify(entries, null, 2)`, so each Date is an ISO string;
// - clients/web/src/lib/downloadFile.ts (buildExportFilename): the file's name.
// core/mcp/state/messageLogState.ts folds a response into the entry of its request (and sets
// duration); a response it could not pair stays an entry of its own.
// The 1.x client (v1/main) has no export: its History panel only shows request and response
// pairs, each copied by hand.

namespace Sonde {

namespace {

QString sizeText(qint64 bytes)
{
    constexpr qint64 MiB = 1024 * 1024;
    return bytes % MiB == 0 ? u"%1 MiB"_s.arg(bytes / MiB) : u"%1 bytes"_s.arg(bytes);
}

// Line and column of a byte offset, for a parse error a user can find in an editor.
QString placeOf(const QByteArray &json, qsizetype offset)
{
    offset = qBound<qsizetype>(0, offset, json.size());
    const QByteArrayView before(json.constData(), offset);
    const qsizetype line = before.count('\n') + 1;
    const qsizetype lastBreak = before.lastIndexOf('\n');
    return u"line %1, column %2"_s.arg(line).arg(offset - lastBreak);
}

qint64 timeOf(const QJsonValue &v)
{
    const QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : -1;
}

QString kindName(InspectorExportReader::Kind kind)
{
    switch (kind) {
    case InspectorExportReader::Kind::Protocol:
        return u"Protocol"_s;
    case InspectorExportReader::Kind::Logs:
        return u"Logs"_s;
    case InspectorExportReader::Kind::Console:
        return u"Console"_s;
    case InspectorExportReader::Kind::Network:
        return u"Network"_s;
    case InspectorExportReader::Kind::Unknown:
        break;
    }
    return {};
}

// The notifications only a client sends; any other, with no origin said, came from the server.
bool isClientNotification(const QString &method)
{
    return method == "notifications/initialized"_L1 ||
           method == "notifications/roots/list_changed"_L1;
}

class RecordMaker
{
public:
    explicit RecordMaker(QString server) : m_server(std::move(server)) {}

    QJsonObject base(qint64 ms, const QString &dir) const
    {
        return {{"t"_L1, QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs)},
                {"t_ms"_L1, ms},
                {"server"_L1, m_server},
                {"gen"_L1, 1},
                {"dir"_L1, dir}};
    }
    QJsonObject message(qint64 ms, const QString &dir, const QJsonObject &msg) const
    {
        QJsonObject o = base(ms, dir);
        o.insert("msg"_L1, msg);
        return o;
    }

private:
    QString m_server;
};

// One Protocol entry: the message, the response folded into it, and the client's rejection.
bool protocolRecords(const QJsonObject &e, const RecordMaker &make, QList<QJsonObject> *out,
                     QString *why)
{
    const qint64 t = timeOf(e.value("timestamp"_L1));
    if (t < 0) {
        *why = u"no \"timestamp\" as an ISO time"_s;
        return false;
    }
    const QString direction = e.value("direction"_L1).toString();
    const QJsonObject message = e.value("message"_L1).toObject();
    if (message.isEmpty()) {
        *why = u"no \"message\" object"_s;
        return false;
    }
    const QString origin = e.value("origin"_L1).toString();
    if (!origin.isEmpty() && origin != "client"_L1 && origin != "server"_L1) {
        *why = u"an \"origin\" of %1, not client or server"_s.arg(origin);
        return false;
    }
    // Entries from before "origin" existed: requests were the client's, responses the server's.
    bool fromClient = origin == "client"_L1;
    if (origin.isEmpty())
        fromClient = direction == "request"_L1 ||
                     (direction == "notification"_L1 &&
                      isClientNotification(message.value("method"_L1).toString()));
    const QString sent = fromClient ? u"send"_s : u"recv"_s;
    const QString answered = fromClient ? u"recv"_s : u"send"_s;
    out->append(make.message(t, sent, message));
    const QJsonObject response = e.value("response"_L1).toObject();
    if (direction == "request"_L1 && !response.isEmpty()) {
        const qint64 at = t + qMax<qint64>(0, e.value("duration"_L1).toInteger());
        out->append(make.message(at, answered, response));
        if (e.value("clientError"_L1).isString()) {
            QJsonObject v = make.base(at, u"violation"_s);
            v.insert("event"_L1, QString(u"the Inspector refused this response: "_s +
                                         e.value("clientError"_L1).toString()));
            v.insert("raw"_L1,
                     QString::fromUtf8(QJsonDocument(response).toJson(QJsonDocument::Compact)));
            out->append(v);
        }
    }
    return true;
}

} // namespace

InspectorExportReader::Kind InspectorExportReader::kindOf(const QJsonObject &e)
{
    static const QStringList Directions{u"request"_s, u"response"_s, u"notification"_s};
    if (e.contains("url"_L1) && e.value("requestHeaders"_L1).isObject())
        return Kind::Network;
    if (Directions.contains(e.value("direction"_L1).toString()) && e.contains("timestamp"_L1))
        return Kind::Protocol;
    if (e.contains("receivedAt"_L1) && e.value("params"_L1).isObject())
        return Kind::Logs;
    if (e.contains("timestamp"_L1) && e.value("message"_L1).isString())
        return Kind::Console;
    return Kind::Unknown;
}

QString InspectorExportReader::serverFromFileName(const QString &fileName)
{
    static const QRegularExpression Name(
        u"^inspector-(?:protocol-pinned|protocol-unpinned|protocol|logs|network|console)-"
        u"(?:(.+)-)?\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d(?:\\.\\d+)?Z\\.json$"_s);
    const QRegularExpressionMatch m = Name.match(fileName);
    return m.hasMatch() ? QUrl::fromPercentEncoding(m.captured(1).toUtf8()) : QString();
}

InspectorExportReader::Result InspectorExportReader::read(QIODevice &in, const QString &server,
                                                          qint64 maxBytes)
{
    Result r;
    if (!in.isSequential() && in.size() > maxBytes) {
        r.error = u"the file is larger than the %1 limit for an Inspector export"_s.arg(
            sizeText(maxBytes));
        return r;
    }
    const QByteArray json = in.read(maxBytes + 1);
    if (json.size() > maxBytes) {
        r.error = u"the file is larger than the %1 limit for an Inspector export"_s.arg(
            sizeText(maxBytes));
        return r;
    }
    return fromJson(json, server);
}

InspectorExportReader::Result InspectorExportReader::fromJson(const QByteArray &json,
                                                              const QString &server)
{
    Result r;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (doc.isNull()) {
        r.error = u"not JSON at %1: %2"_s.arg(placeOf(json, parse.offset), parse.errorString());
        return r;
    }
    if (!doc.isArray()) {
        r.error = u"not an MCP Inspector export: its top level is an object, not the array of "
                  u"entries the Inspector writes"_s;
        return r;
    }
    const QJsonArray entries = doc.array();
    if (entries.isEmpty()) {
        r.error = u"an empty array: no Inspector entries to read"_s;
        return r;
    }
    r.kind = kindOf(entries.first().toObject());
    if (r.kind == Kind::Unknown) {
        r.error = u"not an MCP Inspector export: entry 1 has none of the fields of its "
                  u"Protocol, Logs or Console entries (timestamp and direction, receivedAt "
                  u"and params, timestamp and message)"_s;
        return r;
    }
    if (r.kind == Kind::Network) {
        r.error = u"an MCP Inspector Network export (its HTTP requests, not its messages): "
                  u"export the Protocol history instead"_s;
        return r;
    }
    const RecordMaker make(server.isEmpty() ? u"inspector"_s : server);
    QList<QJsonObject> records;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject e = entries.at(i).toObject();
        const Kind kind = kindOf(e);
        QString why;
        bool ok = kind == r.kind;
        if (!ok)
            why = kind == Kind::Unknown
                      ? u"not an entry of the Inspector's %1 export"_s.arg(kindName(r.kind))
                      : u"a %1 entry in a %2 export"_s.arg(kindName(kind), kindName(r.kind));
        else if (kind == Kind::Protocol)
            ok = protocolRecords(e, make, &records, &why);
        else if (kind == Kind::Logs) {
            const qint64 t = timeOf(e.value("receivedAt"_L1));
            ok = t >= 0;
            why = u"no \"receivedAt\" as an ISO time"_s;
            if (ok)
                records.append(make.message(t, u"recv"_s,
                                            {{"jsonrpc"_L1, u"2.0"_s},
                                             {"method"_L1, u"notifications/message"_s},
                                             {"params"_L1, e.value("params"_L1)}}));
        } else {
            const qint64 t = timeOf(e.value("timestamp"_L1));
            ok = t >= 0;
            why = u"no \"timestamp\" as an ISO time"_s;
            if (ok) {
                QJsonObject line = make.base(t, u"stderr"_s);
                line.insert("line"_L1, e.value("message"_L1).toString());
                records.append(line);
            }
        }
        if (!ok) {
            r.error = u"entry %1: %2"_s.arg(i + 1).arg(why);
            return r;
        }
    }
    // Responses were folded into their requests' entries: in time order, they come later.
    std::stable_sort(records.begin(), records.end(),
                     [](const QJsonObject &a, const QJsonObject &b) {
                         return a.value("t_ms"_L1).toInteger() < b.value("t_ms"_L1).toInteger();
                     });
    r.records = std::move(records);
    return r;
}

} // namespace Sonde

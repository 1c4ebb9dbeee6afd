// SPDX-License-Identifier: MIT
#include "transcript/harexport.h"

#include "transcript/exportreader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

bool isExchange(const QJsonObject &r)
{
    return r.value("dir"_L1).toString() == "event"_L1 &&
           r.value("event"_L1).toString() == "http-exchange"_L1;
}

QString legKey(const QJsonObject &r)
{
    return r.value("server"_L1).toString() + u'\x1f' + QString::number(r.value("gen"_L1).toInt());
}

QJsonObject logOf(const QJsonArray &entries, const QString &comment)
{
    const QString version = QCoreApplication::applicationVersion();
    const QJsonObject log{
        {"version"_L1, u"1.2"_s},
        {"creator"_L1, QJsonObject{{"name"_L1, u"Sonde"_s},
                                   {"version"_L1, version.isEmpty() ? u"unknown"_s : version}}},
        {"entries"_L1, entries},
        {"comment"_L1, comment}};
    return QJsonObject{{"log"_L1, log}};
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

double ms(const QJsonValue &us)
{
    return us.toDouble() / 1000.0;
}

QJsonArray headers(const QJsonValue &list)
{
    QJsonArray out;
    for (const QJsonValue &h : list.toArray())
        out.append(QJsonObject{{"name"_L1, h["name"_L1].toString()},
                               {"value"_L1, h["value"_L1].toString()}});
    return out;
}

QString headerValue(const QJsonArray &list, QLatin1StringView name)
{
    for (const QJsonValue &h : list)
        if (h["name"_L1].toString().compare(name, Qt::CaseInsensitive) == 0)
            return h["value"_L1].toString();
    return {};
}

QJsonObject mcpOf(const QJsonObject &d, int generation, const QString &era)
{
    QJsonObject mcp{{"generation"_L1, generation}, {"era"_L1, era}};
    const QJsonDocument body =
        QJsonDocument::fromJson(d.value("request_body"_L1).toString().toUtf8());
    const QJsonObject msg = body.object();
    if (msg.contains("method"_L1))
        mcp.insert("method"_L1, msg.value("method"_L1));
    if (msg.contains("id"_L1))
        mcp.insert("id"_L1, msg.value("id"_L1));
    if (!msg.contains("method"_L1) && msg.contains("id"_L1))
        mcp.insert("kind"_L1, u"response"_s);
    return mcp;
}

QJsonObject entryOf(const QJsonObject &r, const QString &era)
{
    const QJsonObject d = r.value("details"_L1).toObject();
    const double totalMs = ms(d.value("total_us"_L1));
    const qint64 endMs = r.value("t_ms"_L1).toInteger();
    const qint64 startMs = endMs - qint64(totalMs);
    const double waitMs = qMax(0.0, ms(d.value("first_byte_us"_L1)));
    const QUrl url(d.value("url"_L1).toString());

    const QJsonArray requestHeaders = headers(d.value("request_headers"_L1));
    QJsonObject request{{"method"_L1, d.value("method"_L1).toString()},
                        {"url"_L1, url.toString()},
                        {"httpVersion"_L1, u"HTTP/1.1"_s},
                        {"cookies"_L1, QJsonArray()},
                        {"headers"_L1, requestHeaders},
                        {"queryString"_L1, QJsonArray()},
                        {"headersSize"_L1, -1},
                        {"bodySize"_L1, d.value("request_bytes"_L1).toInteger()}};
    QJsonArray query;
    for (const auto &[name, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        query.append(QJsonObject{{"name"_L1, name}, {"value"_L1, value}});
    request.insert("queryString"_L1, query);
    if (d.contains("request_body"_L1)) {
        QString mime = headerValue(requestHeaders, "content-type"_L1);
        request.insert("postData"_L1,
                       QJsonObject{{"mimeType"_L1, mime.isEmpty() ? u"application/json"_s : mime},
                                   {"text"_L1, d.value("request_body"_L1).toString()}});
    }

    const QString mime = d.value("content_type"_L1).toString();
    QJsonObject content{{"size"_L1, d.value("response_bytes"_L1).toInteger()},
                        {"mimeType"_L1, mime.isEmpty() ? u"x-unknown"_s : mime}};
    if (d.contains("response_body"_L1))
        content.insert("text"_L1, d.value("response_body"_L1).toString());
    QJsonObject response{{"status"_L1, d.value("status"_L1).toInt()},
                         {"statusText"_L1, d.value("status_text"_L1).toString()},
                         {"httpVersion"_L1, u"HTTP/1.1"_s},
                         {"cookies"_L1, QJsonArray()},
                         {"headers"_L1, headers(d.value("response_headers"_L1))},
                         {"content"_L1, content},
                         {"redirectURL"_L1, QString()},
                         {"headersSize"_L1, -1},
                         {"bodySize"_L1, d.value("response_bytes"_L1).toInteger()}};
    if (d.contains("error"_L1))
        response.insert("_error"_L1, d.value("error"_L1));

    QJsonObject entry{{"startedDateTime"_L1, iso(startMs)},
                      {"time"_L1, totalMs},
                      {"request"_L1, request},
                      {"response"_L1, response},
                      {"cache"_L1, QJsonObject()},
                      {"timings"_L1, QJsonObject{{"blocked"_L1, -1},
                                                 {"dns"_L1, -1},
                                                 {"connect"_L1, -1},
                                                 {"send"_L1, 0},
                                                 {"wait"_L1, waitMs},
                                                 {"receive"_L1, qMax(0.0, totalMs - waitMs)},
                                                 {"ssl"_L1, -1}}},
                      {"_mcp"_L1, mcpOf(d, r.value("gen"_L1).toInt(), era)},
                      {"_server"_L1, r.value("server"_L1).toString()}};
    if (d.contains("sse"_L1)) {
        QJsonArray messages;
        for (const QJsonValue &f : d.value("sse"_L1).toArray()) {
            const double at = double(startMs) / 1000.0 + f["t_us"_L1].toDouble() / 1e6;
            QJsonObject m{{"time"_L1, at},
                          {"eventName"_L1, f["event"_L1].toString()},
                          {"eventId"_L1, f["id"_L1].toString()}};
            if (f.toObject().contains("data"_L1))
                m.insert("data"_L1, f["data"_L1].toString());
            messages.append(m);
        }
        entry.insert("_eventSourceMessages"_L1, messages);
    }
    return entry;
}

} // namespace

void HarExport::Legs::add(const QJsonObject &r)
{
    const QString dir = r.value("dir"_L1).toString();
    if (isExchange(r)) {
        ++m_exchanges;
        m_http.insert(legKey(r));
    } else if (dir == "send"_L1 || dir == "recv"_L1 || dir == "stderr"_L1) {
        m_wire.insert(legKey(r));
    }
}

qsizetype HarExport::Legs::stdioLegs() const
{
    qsizetype n = 0;
    for (const QString &k : m_wire)
        n += !m_http.contains(k);
    return n;
}

QString HarExport::describeLegs(qint64 exchanges, qsizetype stdioLegs)
{
    QString text = u"%1 HTTP exchanges"_s.arg(exchanges);
    if (stdioLegs > 0)
        text += u"; %1 stdio legs left out (they have no HTTP requests to show)"_s.arg(stdioLegs);
    return text;
}

QString HarExport::describeLegs(const QList<QJsonObject> &records)
{
    Legs legs;
    for (const QJsonObject &r : records)
        legs.add(r);
    return describeLegs(legs.exchanges(), legs.stdioLegs());
}

QByteArray HarExport::write(const QList<QJsonObject> &records)
{
    return ExportReader::documentAsIs(
        records, {}, [](ExportReader &in, ExportOutput &out) { return write(in, out); });
}

bool HarExport::write(ExportReader &in, ExportOutput &out)
{
    QHash<QString, QString> eras; // legKey -> the era chosen for it
    Legs legs;
    if (!in.read([&](const QJsonObject &r) {
            legs.add(r);
            if (r.value("event"_L1).toString() == "era-chosen"_L1)
                eras.insert(legKey(r), r.value("details"_L1)["era"_L1].toString());
            return true;
        }))
        return false;
    IndentedJsonSplice entries(logOf(QJsonArray{QLatin1StringView(IndentedJsonSplice::Placeholder)},
                                     describeLegs(legs.exchanges(), legs.stdioLegs())),
                               out);
    // The exchanges are lifecycle events: the last pass reads those alone.
    if (!in.read({}, {u"event"_s}, [&](const QJsonObject &r) {
            if (isExchange(r))
                entries.append(entryOf(r, eras.value(legKey(r), u"initialize"_s)));
            return true;
        }))
        return false;
    entries.finish();
    return true;
}

} // namespace Sonde

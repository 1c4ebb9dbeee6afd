// SPDX-License-Identifier: MIT
#include "transcript/transcriptexport.h"

#include "transcript/harexport.h"
#include "transcript/jsonlexport.h"
#include "transcript/markdownreport.h"
#include "transcript/otlpexport.h"
#include "transcript/redactor.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

const char *const FormatNames[] = {"jsonl", "md", "har", "otlp"};

template <class F> QJsonValue mapStrings(const QJsonValue &v, const F &f)
{
    if (v.isString())
        return f(v.toString());
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue &x : v.toArray())
            a.append(mapStrings(x, f));
        return a;
    }
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = mapStrings(it.value(), f);
        return o;
    }
    return v;
}

// The frame without what it carries: the envelope (jsonrpc, id, method) stays, so the calls
// and their outcomes can still be told.
QJsonObject withoutPayload(QJsonObject msg)
{
    for (const auto key : {"params"_L1, "result"_L1}) {
        if (msg.contains(key))
            msg.insert(key, QJsonObject{{"_omitted"_L1, true}});
    }
    if (msg.contains("error"_L1)) {
        QJsonObject e = msg.value("error"_L1).toObject();
        e.remove("data"_L1);
        msg.insert("error"_L1, e);
    }
    return msg;
}

QJsonObject withoutPayload(const QJsonObject &record, bool *changed)
{
    QJsonObject r = record;
    if (r.value("msg"_L1).isObject()) {
        r.insert("msg"_L1, withoutPayload(r.value("msg"_L1).toObject()));
        *changed = true;
    }
    if (r.contains("raw"_L1) && r.value("dir"_L1).toString() != "violation"_L1) {
        r.remove("raw"_L1);
        *changed = true;
    }
    QJsonObject d = r.value("details"_L1).toObject();
    bool detailsChanged = false;
    for (const auto key : {"request_body"_L1, "response_body"_L1})
        detailsChanged |= d.contains(key) && (d.remove(key), true);
    if (d.contains("sse"_L1)) {
        QJsonArray frames = d.value("sse"_L1).toArray();
        for (auto it = frames.begin(); it != frames.end(); ++it) {
            QJsonObject f = it->toObject();
            f.remove("data"_L1);
            *it = f;
        }
        d.insert("sse"_L1, frames);
        detailsChanged = true;
    }
    if (detailsChanged) {
        r.insert("details"_L1, d);
        *changed = true;
    }
    return r;
}

} // namespace

std::optional<TranscriptExport::Format> TranscriptExport::formatFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(FormatNames)); ++i)
        if (name == QLatin1StringView(FormatNames[i]))
            return Format(i);
    return std::nullopt;
}

QString TranscriptExport::formatName(Format f)
{
    return QString::fromLatin1(FormatNames[int(f)]);
}

QStringList TranscriptExport::sessionIds(const QList<QJsonObject> &records)
{
    QStringList ids;
    auto add = [&ids](const QString &id) {
        if (!id.isEmpty() && !ids.contains(id))
            ids.append(id);
    };
    for (const QJsonObject &r : records) {
        const QJsonObject d = r.value("details"_L1).toObject();
        add(d.value("session_id"_L1).toString());
        for (const auto key : {"request_headers"_L1, "response_headers"_L1})
            for (const QJsonValue &h : d.value(key).toArray())
                if (h["name"_L1].toString().compare("mcp-session-id"_L1, Qt::CaseInsensitive) == 0)
                    add(h["value"_L1].toString());
    }
    return ids;
}

QList<QJsonObject> TranscriptExport::prepare(const QList<QJsonObject> &records, const Options &o)
{
    Redactor redactor;
    const QStringList ids = o.includeSessionIds ? QStringList() : sessionIds(records);
    for (const QString &id : ids)
        redactor.addSessionId(id);
    const QString mask = QString::fromLatin1(Redactor::Mask);
    auto maskIds = [&ids, &mask](const QString &s) {
        QString out = s;
        for (const QString &id : ids)
            out.replace(id, mask);
        return out;
    };
    QList<QJsonObject> out;
    out.reserve(records.size());
    for (const QJsonObject &r : records) {
        bool changed = false;
        QJsonObject x = o.includePayloads ? r : withoutPayload(r, &changed);
        if (o.redact)
            x = redactor.apply(x);
        else if (!ids.isEmpty())
            x = mapStrings(QJsonValue(x), maskIds).toObject();
        out.append(x);
    }
    return out;
}

QString TranscriptExport::describe(Format f, const QList<QJsonObject> &records, const Options &o)
{
    QStringList parts;
    switch (f) {
    case Format::Jsonl:
        parts << u"all %1 events, verdicts included"_s.arg(records.size());
        break;
    case Format::Markdown:
        parts << u"a report of %1 events: versions, calls, errors, recovery"_s.arg(records.size());
        break;
    case Format::Har:
        parts << HarExport::describeLegs(records);
        break;
    case Format::Otlp:
        parts << u"one span per request (%1 events read)"_s.arg(records.size());
        if (!o.collectorUrl.isEmpty())
            parts << u"to be sent to %1"_s.arg(o.collectorUrl);
        break;
    }
    parts << (o.redact ? u"secrets redacted"_s : u"secrets NOT redacted"_s);
    parts << (o.includeSessionIds ? u"session ids included"_s : u"session ids masked"_s);
    parts << (o.includePayloads ? u"payloads included"_s : u"payloads left out"_s);
    return parts.join("; "_L1);
}

QByteArray TranscriptExport::write(Format f, const QList<QJsonObject> &records, const Options &o)
{
    const QList<QJsonObject> prepared = prepare(records, o);
    switch (f) {
    case Format::Jsonl:
        return JsonlExport::write(prepared, o);
    case Format::Markdown:
        return MarkdownReport::write(prepared);
    case Format::Har:
        return HarExport::write(prepared);
    case Format::Otlp:
        return OtlpExport::write(prepared);
    }
    return {};
}

} // namespace Sonde

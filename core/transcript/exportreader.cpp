// SPDX-License-Identifier: MIT
#include "transcript/exportreader.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// How often progress is told: often enough for a bar, rarely enough to cost nothing.
constexpr qint64 ProgressEvery = 4096;

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

QJsonObject recordWithoutPayload(const QJsonObject &record)
{
    QJsonObject r = record;
    if (r.value("msg"_L1).isObject())
        r.insert("msg"_L1, withoutPayload(r.value("msg"_L1).toObject()));
    if (r.contains("raw"_L1) && r.value("dir"_L1).toString() != "violation"_L1)
        r.remove("raw"_L1);
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
    if (detailsChanged)
        r.insert("details"_L1, d);
    return r;
}

} // namespace

ExportReader::ExportReader(const ExportSource &source, const TranscriptExport::Options &options,
                           const QString &scope, Progress progress)
    : m_source(source), m_options(options), m_scope(scope), m_progress(std::move(progress))
{
}

ExportReader ExportReader::asIs(const ExportSource &source,
                                const TranscriptExport::Options &options)
{
    ExportReader reader(source, options);
    reader.m_prepare = false;
    reader.m_idsFound = true;
    return reader;
}

QByteArray
ExportReader::documentAsIs(const QList<QJsonObject> &records,
                           const TranscriptExport::Options &options,
                           const std::function<bool(ExportReader &, ExportOutput &)> &write)
{
    const ListExportSource source(records);
    ExportReader in = asIs(source, options);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    ExportOutput out(buffer);
    write(in, out);
    return buffer.data();
}

void ExportReader::addSessionIds(const QJsonObject &record, QStringList *ids)
{
    auto add = [ids](const QString &id) {
        if (!id.isEmpty() && !ids->contains(id))
            ids->append(id);
    };
    const QJsonObject d = record.value("details"_L1).toObject();
    if (d.isEmpty())
        return;
    add(d.value("session_id"_L1).toString());
    for (const auto key : {"request_headers"_L1, "response_headers"_L1})
        for (const QJsonValue &h : d.value(key).toArray())
            if (h["name"_L1].toString().compare("mcp-session-id"_L1, Qt::CaseInsensitive) == 0)
                add(h["value"_L1].toString());
}

bool ExportReader::pass(const QString &server, const QStringList &directions,
                        const ExportSource::Each &each)
{
    if (!m_error.isEmpty())
        return false;
    QString why;
    bool cancelled = false;
    // The first pass over every record of the scope is counted on its way (each format makes
    // one): a counted pass costs a hash lookup a record, a pass of its own a whole reading.
    const bool tally =
        !m_tallied && directions.isEmpty() && (server.isEmpty() || server == m_scope);
    const bool whole = m_source.read(
        server.isEmpty() ? m_scope : server, directions,
        [&](const QJsonObject &r) {
            if (++m_read % ProgressEvery == 0 && m_progress && !m_progress(m_read)) {
                cancelled = true;
                return false;
            }
            if (tally)
                m_tally.add(r);
            return each(r);
        },
        &why);
    if (tally && whole)
        m_tallied = true;
    else if (tally)
        m_tally = {};
    if (cancelled)
        m_error = u"cancelled"_s;
    else if (!whole && !why.isEmpty())
        m_error = why;
    else if (!whole)
        m_error = u"the export stopped reading"_s;
    return whole;
}

std::optional<TranscriptExport::Counts> ExportReader::counts() const
{
    if (!m_tallied)
        return std::nullopt;
    return m_scope.isEmpty() ? m_tally.all() : m_tally.of(m_scope);
}

bool ExportReader::findSessionIds()
{
    m_idsFound = true;
    if (m_options.includeSessionIds)
        return true;
    const bool ok = pass({}, {u"event"_s}, [this](const QJsonObject &r) {
        addSessionIds(r, &m_ids);
        return true;
    });
    for (const QString &id : std::as_const(m_ids))
        m_redactor.addSessionId(id);
    return ok;
}

QJsonObject ExportReader::prepared(const QJsonObject &record) const
{
    if (!m_prepare)
        return record;
    QJsonObject x = m_options.includePayloads ? record : recordWithoutPayload(record);
    if (m_options.redact)
        return m_redactor.apply(x);
    if (m_ids.isEmpty())
        return x;
    const QString mask = QString::fromLatin1(Redactor::Mask);
    return mapStrings(QJsonValue(x),
                      [this, &mask](const QString &s) {
                          QString out = s;
                          for (const QString &id : m_ids)
                              out.replace(id, mask);
                          return out;
                      })
        .toObject();
}

bool ExportReader::read(const QString &server, const QStringList &directions,
                        const ExportSource::Each &each)
{
    if (!m_idsFound && !findSessionIds())
        return false;
    if (!m_prepare)
        return pass(server, directions, each);
    return pass(server, directions, [&](const QJsonObject &r) { return each(prepared(r)); });
}

void ExportOutput::put(const QByteArray &bytes)
{
    if (!m_failed && m_device.write(bytes) != bytes.size())
        m_failed = true;
}

bool ExportOutput::ok(QString *error) const
{
    if (m_failed && error)
        *error = m_device.errorString();
    return !m_failed;
}

IndentedJsonSplice::IndentedJsonSplice(const QJsonObject &documentWithPlaceholder,
                                       ExportOutput &out)
    : m_out(out)
{
    const QByteArray whole = QJsonDocument(documentWithPlaceholder).toJson(QJsonDocument::Indented);
    const QByteArray mark = '"' + QByteArray(Placeholder) + '"';
    const qsizetype at = whole.indexOf(mark);
    Q_ASSERT(at > 0);
    const qsizetype lineStart = whole.lastIndexOf('\n', at) + 1;
    m_indent = whole.mid(lineStart, at - lineStart);
    m_tail = whole.mid(whole.indexOf('\n', at) + 1);
    m_out.put(whole.left(lineStart));
}

void IndentedJsonSplice::append(const QJsonObject &element)
{
    QByteArray text = QJsonDocument(element).toJson(QJsonDocument::Indented);
    text.chop(1); // the document's own last newline
    text.replace("\n", QByteArray(QByteArray("\n") + m_indent));
    m_out.put((m_first ? QByteArray() : QByteArray(",\n")) + m_indent + text);
    m_first = false;
}

void IndentedJsonSplice::finish()
{
    m_out.put(m_first ? m_tail : QByteArray(QByteArray("\n") + m_tail));
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptexporter.h"

#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "transcript/redactor.h"

#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QList<int> selectedRows(const TranscriptStore &store, const TranscriptExporter::Rows &rows)
{
    if (rows)
        return *rows;
    QList<int> all(store.size());
    for (int i = 0; i < store.size(); ++i)
        all[i] = i;
    return all;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QString tableCell(QString text)
{
    text.replace(u'\n', u' ');
    text.replace(u'\r', u' ');
    text.replace(u'|', "\\|"_L1);
    return text;
}

// A fence longer than any backtick run inside, so a stderr line holding ``` cannot end it.
QString fenced(const QString &language, const QString &body)
{
    int longest = 0;
    int run = 0;
    for (const QChar c : body) {
        run = c == u'`' ? run + 1 : 0;
        longest = qMax(longest, run);
    }
    const QString fence(qMax(3, longest + 1), u'`');
    QString out = fence + language + u'\n' + body;
    if (!body.endsWith(u'\n'))
        out += u'\n';
    return out + fence + u'\n';
}

QString latencyText(const TranscriptStore::Entry &entry)
{
    return entry.isResponse && entry.latencyMs >= 0 ? QString::number(entry.latencyMs) + " ms"_L1
                                                    : QString();
}

// The MCP session id an event's details name: the route's (transport-open, closed) or the
// failed request's (an error's own).
std::optional<QString> sessionIdOf(const TranscriptEvent &e)
{
    using D = LifecycleDetails;
    if (const auto *open = e.detailsAs<D::TransportOpen>())
        return open->value.sessionId;
    if (const auto *closed = e.detailsAs<D::Closed>())
        return closed->transport.sessionId;
    if (const auto *lost = e.detailsAs<D::ConnectionLost>())
        return lost->value.sessionId();
    if (const auto *failed = e.detailsAs<D::InitializeFailed>())
        return failed->value.sessionId();
    if (const auto *untyped = e.detailsAs<D::Untyped>(); untyped) {
        // A kind this build does not know: only its keys say.
        if (const QJsonValue id = untyped->fields.value("session_id"_L1); id.isString())
            return id.toString();
    }
    return std::nullopt;
}

// The session ids anywhere in the store, not only in the rows written: a row can name an
// id (in an error text) that only another row's details say is one.
Redactor withStoreSessionIds(const TranscriptStore &store, Redactor redactor)
{
    for (int row = 0; row < store.size(); ++row)
        if (const std::optional<QString> id = sessionIdOf(store.event(row)); id && !id->isEmpty())
            redactor.addSessionId(*id);
    return redactor;
}

// The event as its JSON Lines record would be masked: raw and details as text, so a key
// that names a secret ("api_key": ...) counts here as it does there.
TranscriptEvent masked(const TranscriptEvent &e, const Redactor &redactor)
{
    TranscriptEvent out = e;
    out.raw = redactor.apply(QString::fromUtf8(e.raw)).toUtf8();
    if (const QJsonObject details = e.details ? e.details->toJson() : QJsonObject();
        !details.isEmpty()) {
        const QString text =
            QString::fromUtf8(QJsonDocument(details).toJson(QJsonDocument::Compact));
        const QJsonDocument doc = QJsonDocument::fromJson(redactor.apply(text).toUtf8());
        out.details = std::make_shared<const LifecycleDetails>(LifecycleDetails::fromJson(
            e.event, doc.isObject() ? doc.object() : redactor.apply(details)));
    }
    return out;
}

} // namespace

QByteArray TranscriptExporter::toJsonLines(const TranscriptStore &store, bool redactSecrets,
                                           const Redactor &givenRedactor, const Rows &rows)
{
    const Redactor redactor =
        redactSecrets ? withStoreSessionIds(store, givenRedactor) : Redactor();
    QByteArray out;
    for (int row : selectedRows(store, rows)) {
        if (row < 0 || row >= store.size())
            continue;
        // Byte for byte what TranscriptWriter writes for the CLI, so the same tools read both.
        QByteArray line = QJsonDocument(store.event(row).toJson()).toJson(QJsonDocument::Compact);
        if (redactSecrets)
            line = redactor.apply(QString::fromUtf8(line)).toUtf8();
        out += line;
        out += '\n';
    }
    return out;
}

QByteArray TranscriptExporter::toMarkdown(const TranscriptStore &store, bool redactSecrets,
                                          const Redactor &givenRedactor, const Rows &rows)
{
    const Redactor redactor =
        redactSecrets ? withStoreSessionIds(store, givenRedactor) : Redactor();
    const auto clean = [&](const QString &text) {
        return redactSecrets ? redactor.apply(text) : text;
    };

    QStringList servers;
    QHash<QString, QList<int>> rowsByServer;
    qint64 firstMs = 0;
    qint64 lastMs = 0;
    int count = 0;
    for (int row : selectedRows(store, rows)) {
        if (row < 0 || row >= store.size())
            continue;
        const TranscriptEvent &e = store.event(row);
        if (!rowsByServer.contains(e.server))
            servers.append(e.server);
        rowsByServer[e.server].append(row);
        firstMs = count ? qMin(firstMs, e.timeMs) : e.timeMs;
        lastMs = count ? qMax(lastMs, e.timeMs) : e.timeMs;
        ++count;
    }

    QString md = u"# Sonde transcript\n\n"_s;
    if (count == 0) {
        md += u"No events.\n"_s;
        return md.toUtf8();
    }
    md += QString::number(count) + " events from "_L1 +
          QDateTime::fromMSecsSinceEpoch(firstMs).toString(Qt::ISODateWithMs) + " to "_L1 +
          QDateTime::fromMSecsSinceEpoch(lastMs).toString(Qt::ISODateWithMs) +
          " (local time). "_L1 +
          (redactSecrets ? "Secrets are redacted."_L1 : "Secrets are NOT redacted."_L1) + u'\n';

    int number = 0;
    for (const QString &server : std::as_const(servers)) {
        const QList<int> &serverRows = rowsByServer[server];
        md += u"\n## "_s + (server.isEmpty() ? u"(no server)"_s : tableCell(clean(server))) +
              u"\n\n"_s;
        md += u"| # | Time | Gen | Dir | Method / Id | Latency | Summary |\n"_s
              u"|--:|------|----:|-----|-------------|--------:|---------|\n"_s;
        const int firstNumber = number + 1;
        for (int row : serverRows) {
            const TranscriptEvent &e = store.event(row);
            const TranscriptStore::Entry &entry = store.entry(row);
            md += "| "_L1 + QString::number(++number) + " | "_L1 +
                  TranscriptModel::timeText(e.timeMs) + " | "_L1 + QString::number(e.generation) +
                  " | "_L1 + TranscriptEvent::directionName(e.direction) + " | "_L1 +
                  tableCell(clean(TranscriptModel::methodText(e, entry))) + " | "_L1 +
                  latencyText(entry) + " | "_L1 +
                  tableCell(redactSecrets ? TranscriptStore::summaryOf(masked(e, redactor))
                                          : entry.summary) +
                  (entry.isError ? " **error**"_L1 : ""_L1) + " |\n"_L1;
        }

        md += u"\n### Messages\n"_s;
        number = firstNumber - 1;
        for (int row : serverRows) {
            const TranscriptEvent &e = store.event(row);
            const TranscriptStore::Entry &entry = store.entry(row);
            const QString title = TranscriptModel::methodText(e, entry);
            const QString latency = latencyText(entry);
            md += "\n**"_L1 + QString::number(++number) + ".** `"_L1 +
                  TranscriptModel::timeText(e.timeMs) + "` "_L1 +
                  TranscriptEvent::directionName(e.direction) +
                  (title.isEmpty() ? QString() : QString(u' ' + clean(title))) +
                  (latency.isEmpty() ? QString() : QString(" ("_L1 + latency + u')')) + "\n\n"_L1;
            switch (e.direction) {
            case TranscriptEvent::Direction::Outgoing:
            case TranscriptEvent::Direction::Incoming: {
                // The one place the frame is parsed again: to print it indented.
                const QJsonDocument doc = QJsonDocument::fromJson(e.raw);
                if (doc.isNull())
                    md += fenced(u"text"_s, clean(QString::fromUtf8(e.raw)));
                else
                    md += fenced(u"json"_s,
                                 clean(QString::fromUtf8(doc.toJson(QJsonDocument::Indented))));
                break;
            }
            case TranscriptEvent::Direction::Stderr:
                md += fenced(u"text"_s, clean(QString::fromUtf8(e.raw)));
                break;
            case TranscriptEvent::Direction::Violation:
                md += fenced(u"text"_s, clean(QString::fromUtf8(e.raw.left(4096))));
                break;
            case TranscriptEvent::Direction::Lifecycle:
                if (const QJsonObject details = e.details ? e.details->toJson() : QJsonObject();
                    !details.isEmpty())
                    md += fenced(u"json"_s, clean(QString::fromUtf8(QJsonDocument(details).toJson(
                                                QJsonDocument::Indented))));
                break;
            }
        }
    }
    return md.toUtf8();
}

TranscriptBatch TranscriptExporter::modelEvents(const TranscriptModel &model, qint64 limit,
                                                QString *error)
{
    const int rows = model.rowCount();
    if (rows > limit) {
        *error = u"%1 events, over the export dialog's limit of %2 (sonde-cli history export "
                 u"has none)"_s.arg(rows)
                     .arg(limit);
        return {};
    }
    TranscriptBatch out;
    out.reserve(rows);
    for (int row = 0; row < rows; ++row)
        if (const TranscriptEvent *e = model.event(row))
            out.append(*e);
    return out;
}

bool TranscriptExporter::writeJsonLines(const TranscriptStore &store, const QString &path,
                                        bool redactSecrets, const Redactor &redactor,
                                        QString *error, const Rows &rows)
{
    return writeFile(path, toJsonLines(store, redactSecrets, redactor, rows), error);
}

bool TranscriptExporter::writeMarkdown(const TranscriptStore &store, const QString &path,
                                       bool redactSecrets, const Redactor &redactor, QString *error,
                                       const Rows &rows)
{
    return writeFile(path, toMarkdown(store, redactSecrets, redactor, rows), error);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptstore.h"

#include "application/transcript/rev20260728eventsummary.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/jsonspan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QThread>

using namespace Qt::StringLiterals;

namespace Sonde {

// The store's list grows to 200,000 events on the GUI thread; a relocatable event makes each
// growth one realloc rather than a move of every event (a flood's longest stall, median of 5
// runs in turns: 23.9 ms before (one run at 57.7), 20.9 ms after; sonde-bench-gui).
static_assert(QTypeInfo<TranscriptEvent>::isRelocatable);

namespace {

// Compact JSON that stops growing once it passes `budget` characters: a summary of a 10 MB
// result must not serialize 10 MB first. Newlines inside strings stay escaped, so it is one line.
void appendCompact(QString &out, const QJsonValue &v, qsizetype budget)
{
    if (out.size() > budget)
        return;
    switch (v.type()) {
    case QJsonValue::Null:
        out += "null"_L1;
        break;
    case QJsonValue::Bool:
        out += v.toBool() ? "true"_L1 : "false"_L1;
        break;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == double(qint64(d)))
            out += QString::number(qint64(d));
        else
            out += QString::number(d, 'g', QLocale::FloatingPointShortest);
        break;
    }
    case QJsonValue::String: {
        const QString s = v.toString();
        // Only the part that can still be seen is escaped.
        const QStringView visible =
            QStringView(s).left(qMax<qsizetype>(0, budget - out.size() + 1));
        out += u'"';
        for (const QChar c : visible) {
            switch (c.unicode()) {
            case '"':
                out += "\\\""_L1;
                break;
            case '\\':
                out += "\\\\"_L1;
                break;
            case '\n':
                out += "\\n"_L1;
                break;
            case '\r':
                out += "\\r"_L1;
                break;
            case '\t':
                out += "\\t"_L1;
                break;
            default:
                out += c.unicode() < 0x20 ? QChar(u' ') : c;
            }
        }
        if (visible.size() == s.size())
            out += u'"';
        break;
    }
    case QJsonValue::Array: {
        out += u'[';
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size() && out.size() <= budget; ++i) {
            if (i)
                out += u',';
            appendCompact(out, a.at(i), budget);
        }
        out += u']';
        break;
    }
    case QJsonValue::Object: {
        out += u'{';
        const QJsonObject o = v.toObject();
        bool firstKey = true;
        for (auto it = o.begin(); it != o.end() && out.size() <= budget; ++it) {
            if (!firstKey)
                out += u',';
            firstKey = false;
            appendCompact(out, QJsonValue(it.key()), budget);
            out += u':';
            appendCompact(out, it.value(), budget);
        }
        out += u'}';
        break;
    }
    case QJsonValue::Undefined:
        break;
    }
}

QString oneLine(QString text)
{
    if (text.size() > TranscriptStore::SummaryMaxChars)
        text = text.left(TranscriptStore::SummaryMaxChars - 1) + u'…';
    return text;
}

QString compact(const QJsonValue &v)
{
    QString out;
    appendCompact(out, v, TranscriptStore::SummaryMaxChars);
    return oneLine(out);
}

// Free text (a tool's output, a stderr line) made one line without touching more of it
// than can be shown.
QString plainLine(const QString &text)
{
    return oneLine(text.left(TranscriptStore::SummaryMaxChars * 2).simplified());
}

QString requestSummary(const QJsonObject &params)
{
    // tools/call and prompts/get say what they call; resources/read what it reads.
    const QString name = params.value("name"_L1).toString();
    if (!name.isEmpty()) {
        const QJsonObject args = params.value("arguments"_L1).toObject();
        return args.isEmpty() ? name : oneLine(name + u' ' + compact(args));
    }
    const QString uri = params.value("uri"_L1).toString();
    if (!uri.isEmpty())
        return oneLine(uri);
    return params.isEmpty() ? QString() : compact(params);
}

QString listSummary(const QJsonArray &items, const QString &noun)
{
    QString names;
    for (const QJsonValue &item : items) {
        const QJsonObject o = item.toObject();
        QString n = o.value("name"_L1).toString();
        if (n.isEmpty())
            n = o.value("uri"_L1).toString();
        if (n.isEmpty())
            continue;
        if (!names.isEmpty())
            names += ", "_L1;
        names += n;
        if (names.size() > TranscriptStore::SummaryMaxChars)
            break;
    }
    QString head = QString::number(items.size()) + u' ' + noun;
    return oneLine(names.isEmpty() ? head : head + ": "_L1 + names);
}

QString resultSummary(const QJsonValue &result)
{
    if (!result.isObject())
        return compact(result);
    const QJsonObject r = result.toObject();
    const QJsonValue content = r.value("content"_L1);
    if (content.isArray()) {
        const QJsonArray items = content.toArray();
        for (const QJsonValue &item : items) {
            const QJsonObject o = item.toObject();
            if (o.value("type"_L1).toString() == "text"_L1)
                return plainLine(o.value("text"_L1).toString());
        }
        return QString::number(items.size()) + " content item(s)"_L1;
    }
    for (const auto noun : {"tools"_L1, "resources"_L1, "resourceTemplates"_L1, "prompts"_L1}) {
        const QJsonValue list = r.value(noun);
        if (list.isArray())
            return listSummary(list.toArray(), noun);
    }
    const QJsonObject info = r.value("serverInfo"_L1).toObject();
    if (!info.isEmpty())
        return oneLine(info.value("name"_L1).toString() + u' ' +
                       info.value("version"_L1).toString() + ", protocol "_L1 +
                       r.value("protocolVersion"_L1).toString());
    return compact(r);
}

struct Message
{
    TranscriptStore::Entry entry;
    QString idKey; // set on requests and responses
};

Message summarizeMessage(const QJsonObject &o)
{
    Message m;
    const QJsonValue id = o.value("id"_L1);
    const bool hasId = !id.isUndefined() && !id.isNull();
    if (o.value("method"_L1).isString()) {
        m.entry.method = o.value("method"_L1).toString();
        m.entry.summary = requestSummary(o.value("params"_L1).toObject());
        if (hasId) {
            m.entry.isRequest = true;
            m.entry.id = JsonRpcMessage::idText(id);
            m.idKey = JsonRpcMessage::idKey(id);
        }
        return m;
    }
    if (o.contains("result"_L1) || o.contains("error"_L1)) {
        m.entry.isResponse = true;
        m.entry.id = hasId ? JsonRpcMessage::idText(id) : u"null"_s; // an error's null id
        m.entry.method = u"response #"_s + m.entry.id;
        if (hasId)
            m.idKey = JsonRpcMessage::idKey(id);
        const QJsonValue error = o.value("error"_L1);
        if (error.isObject()) {
            const QJsonObject err = error.toObject();
            m.entry.isError = true;
            m.entry.summary =
                plainLine(u"error "_s + QString::number(err.value("code"_L1).toInt()) + ": "_L1 +
                          err.value("message"_L1).toString());
        } else {
            const QJsonValue result = o.value("result"_L1);
            m.entry.isError = result.toObject().value("isError"_L1).toBool();
            m.entry.summary = resultSummary(result);
        }
        return m;
    }
    m.entry.summary = compact(o);
    return m;
}

// A verdict in words, as the window showed it, naming the request it is about (also its id
// column, so a search for the id finds the verdict next to the frames).
bool summarizeVerdict(const TranscriptEvent &e, TranscriptStore::Entry &entry)
{
    const HistoryEvent::VerdictCall *c = e.history() ? e.history()->verdictCall() : nullptr;
    if (!c)
        return false;
    const QString call =
        c->method + (c->tool ? u' ' + *c->tool : QString()) +
        (c->requestId ? u" #"_s + QString::number(*c->requestId) +
                            (c->generation ? u" (generation %1)"_s.arg(*c->generation) : QString())
                      : QString());
    const auto ruleText = [](const std::optional<QString> &rule) {
        return rule ? u" ("_s + *rule + u')' : QString();
    };
    if (const auto *uncertain = e.detailsAs<HistoryEvent::OutcomeUncertain>()) {
        entry.summary =
            oneLine(u"outcome uncertain: "_s + call + " was not sent again"_L1 +
                    ruleText(uncertain->rule) + u"; reconnect "_s + enumName(uncertain->reconnect));
        entry.isError = true;
    } else if (const auto *again = e.detailsAs<HistoryEvent::SentAgain>()) {
        entry.summary =
            oneLine(u"sent again: "_s + call + " as #"_L1 +
                    QString::number(again->newRequestId.value_or(0)) + " on generation "_L1 +
                    QString::number(again->newGeneration) + ruleText(again->rule));
    } else if (const auto *refused = e.detailsAs<HistoryEvent::BreakerRefused>()) {
        entry.summary =
            oneLine(u"not sent, breaker open: "_s + call +
                    u"; retry in %1 s"_s.arg(refused->retryInS) + u" — "_s + refused->cause);
        entry.isError = true;
    }
    if (c->requestId)
        entry.id = QString::number(*c->requestId);
    // The method filter ("tools/call") shows the verdicts beside the calls they are about.
    entry.method = c->method;
    return true;
}

} // namespace

TranscriptStore::TranscriptStore(int capacity, QObject *parent, qint64 capacityBytes)
    : QObject(parent), m_capacity(qMax(1, capacity)), m_dropChunk(qMax(1, m_capacity / 10)),
      m_capacityBytes(qMax<qint64>(1, capacityBytes))
{
}

QString TranscriptStore::summaryOf(const TranscriptEvent &e)
{
    QString idKey;
    return summarize(e, &idKey).summary;
}

TranscriptStore::Entry TranscriptStore::entryOf(const TranscriptEvent &e)
{
    QString idKey;
    return summarize(e, &idKey);
}

TranscriptStore::Entry TranscriptStore::summarize(const TranscriptEvent &e, QString *idKey)
{
    Entry entry;
    switch (e.direction) {
    case TranscriptEvent::Direction::Outgoing:
    case TranscriptEvent::Direction::Incoming: {
        // The one parse of this frame; only the summary is kept, the raw bytes stay the truth.
        // A big frame is parsed with its long strings cut (a summary shows a line of them):
        // a 20 MiB answer then costs the GUI thread one scan, not a parse and a UTF-16 copy.
        QJsonParseError error;
        std::optional<QByteArray> shortened;
        if (e.raw.size() > SummaryWholeParseBytes)
            shortened = JsonSpan::shortened(e.raw, SummaryStringBytes);
        const QJsonDocument doc = QJsonDocument::fromJson(shortened ? *shortened : e.raw, &error);
        if (doc.isObject()) {
            Message m = summarizeMessage(doc.object());
            *idKey = m.idKey;
            return m.entry;
        }
        if (doc.isArray()) {
            const QJsonArray items = doc.array();
            QString parts;
            for (const QJsonValue &item : items) {
                const Message m = summarizeMessage(item.toObject());
                if (!parts.isEmpty())
                    parts += ", "_L1;
                parts += m.entry.method;
                entry.isError = entry.isError || m.entry.isError;
                if (parts.size() > SummaryMaxChars)
                    break;
            }
            entry.method = u"batch"_s;
            entry.summary = oneLine(QString::number(items.size()) + " messages: "_L1 + parts);
            return entry;
        }
        entry.summary = plainLine(u"not JSON ("_s + error.errorString() + "): "_L1 +
                                  QString::fromUtf8(e.raw.left(SummaryMaxChars * 2)));
        return entry;
    }
    case TranscriptEvent::Direction::Stderr:
        entry.summary = plainLine(QString::fromUtf8(e.raw.left(SummaryMaxChars * 4)));
        return entry;
    case TranscriptEvent::Direction::Lifecycle:
        if (summarizeVerdict(e, entry))
            return entry;
        // A proxy's verdict on its client's recovery (docs/proxy.md), in words; a fail is
        // an error row.
        if (const auto *proxy = e.details ? e.details->as<LifecycleDetails::Untyped>() : nullptr;
            proxy && proxy->type == "proxy-verdict"_L1) {
            const QString state = proxy->fields.value("state"_L1).toString();
            entry.summary =
                oneLine(state.toUpper() + u' ' + proxy->fields.value("kind"_L1).toString() +
                        u": "_s + proxy->fields.value("summary"_L1).toString());
            entry.isError = state == "fail"_L1;
            return entry;
        }
        if (const std::optional<Rev20260728EventSummary> modern = Rev20260728EventSummary::of(e)) {
            entry.summary = oneLine(modern->summary);
            entry.method = modern->method;
            entry.id = modern->id;
            entry.isError = modern->isError;
            return entry;
        }
        // Any other kind in its record's words: every key, as the transcript writes them.
        if (const QJsonObject d = e.details ? e.details->toJson() : QJsonObject(); !d.isEmpty())
            entry.summary = oneLine(e.event + u' ' + compact(d));
        else
            entry.summary = e.event;
        return entry;
    case TranscriptEvent::Direction::Violation:
        entry.summary =
            plainLine(e.event + ": "_L1 + QString::fromUtf8(e.raw.left(SummaryMaxChars * 2)));
        return entry;
    }
    return entry;
}

void TranscriptStore::pair(int row, const QString &idKey)
{
    Entry &entry = m_entries[row];
    const TranscriptEvent &e = m_events.at(row);
    const auto key = [&](TranscriptEvent::Direction requestDirection) {
        return QString(e.server + QChar(0x1f) + QString::number(e.generation) + QChar(0x1f) +
                       (requestDirection == TranscriptEvent::Direction::Outgoing ? u'>' : u'<') +
                       idKey);
    };
    if (entry.isRequest) {
        // A reused id replaces the older request: only the newest one can still be answered.
        m_pending.insert(key(e.direction), m_dropped + row);
        return;
    }
    if (!entry.isResponse)
        return;
    const auto requestDirection = e.direction == TranscriptEvent::Direction::Outgoing
                                      ? TranscriptEvent::Direction::Incoming
                                      : TranscriptEvent::Direction::Outgoing;
    const auto it = m_pending.constFind(key(requestDirection));
    if (it == m_pending.cend())
        return;
    const int requestRow = int(it.value() - m_dropped);
    m_pending.erase(it);
    if (requestRow < 0)
        return;
    m_entries[requestRow].pairedRow = row;
    entry.pairedRow = requestRow;
    entry.latencyMs = qMax<qint64>(0, e.timeMs - m_events.at(requestRow).timeMs);
}

void TranscriptStore::append(const TranscriptBatch &batch)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (batch.isEmpty())
        return;
    // A batch larger than the whole store keeps only its newest events.
    const qsizetype skip = qMax<qsizetype>(0, batch.size() - m_capacity);
    const qsizetype incoming = batch.size() - skip;
    const qsizetype over = m_events.size() + incoming - m_capacity;
    if (over > 0)
        dropFront(int(qMin<qsizetype>(m_events.size(), qMax<qsizetype>(over, m_dropChunk))));
    qint64 incomingBytes = 0;
    for (qsizetype i = skip; i < batch.size(); ++i)
        incomingBytes += batch.at(i).raw.size();
    dropFront(overBytes(incomingBytes));
    // Those it never holds count as dropped: droppedCount() says what is missing, and each
    // event keeps a number of its own (sequence()).
    m_dropped += skip;

    const int first = size();
    bool newServer = false;
    for (qsizetype i = skip; i < batch.size(); ++i) {
        const TranscriptEvent &e = batch.at(i);
        QString idKey;
        m_entries.append(summarize(e, &idKey));
        m_events.append(e);
        m_bytes += e.raw.size();
        if (!m_serverSet.contains(e.server)) {
            m_serverSet.insert(e.server);
            m_servers.append(e.server);
            newServer = true;
        }
        if (!idKey.isEmpty())
            pair(size() - 1, idKey);
    }
    Q_EMIT rowsAppended(first, size() - 1);
    Q_EMIT batchAppended(batch, sequence(first) - skip);
    if (newServer)
        Q_EMIT serversChanged();
}

int TranscriptStore::rowOfSequence(qint64 sequence) const
{
    const qint64 row = sequence - m_cleared - m_dropped;
    return row >= 0 && row < size() ? int(row) : -1;
}

int TranscriptStore::overBytes(qint64 incomingBytes) const
{
    if (m_bytes + incomingBytes <= m_capacityBytes || m_events.isEmpty())
        return 0;
    // Drop from the front until the batch fits, and a tenth more, so that a stream of large
    // answers does not pay a drop per batch.
    const qint64 target = m_bytes + incomingBytes - m_capacityBytes + m_capacityBytes / 10;
    qint64 freed = 0;
    int count = 0;
    while (count < m_events.size() && freed < target)
        freed += m_events.at(count++).raw.size();
    return count;
}

void TranscriptStore::setCapacity(int capacity, qint64 capacityBytes)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_capacity = qMax(1, capacity);
    m_dropChunk = qMax(1, m_capacity / 10);
    m_capacityBytes = qMax<qint64>(1, capacityBytes);
    // Down to the bounds exactly (no chunk to spare): what is dropped here was already held,
    // so no append is waiting to pay for it.
    int count = qMax(0, size() - m_capacity);
    qint64 bytes = m_bytes;
    for (int i = 0; i < count; ++i)
        bytes -= m_events.at(i).raw.size();
    while (bytes > m_capacityBytes && count < size() - 1)
        bytes -= m_events.at(count++).raw.size();
    dropFront(count);
}

void TranscriptStore::dropFront(int count)
{
    if (count <= 0)
        return;
    // QList drops from the front by moving its begin pointer; the pass over the pairs below is
    // paid once per chunk, which keeps appends O(1) amortized.
    for (int i = 0; i < count; ++i)
        m_bytes -= m_events.at(i).raw.size();
    m_events.remove(0, count);
    m_entries.remove(0, count);
    m_dropped += count;
    for (Entry &entry : m_entries) {
        if (entry.pairedRow >= 0)
            entry.pairedRow = entry.pairedRow >= count ? entry.pairedRow - count : -1;
    }
    m_pending.removeIf(
        [this](const QHash<QString, qint64>::iterator &it) { return it.value() < m_dropped; });
    Q_EMIT rowsDropped(count);
}

int TranscriptStore::lastToolCall(const QString &server, const QString &tool) const
{
    // Only the few tools/call rows are parsed again, newest first: the summary keeps no name.
    for (int row = size() - 1; row >= 0; --row) {
        const TranscriptEvent &e = m_events.at(row);
        const Entry &entry = m_entries.at(row);
        if (!entry.isRequest || entry.method != "tools/call"_L1 ||
            e.direction != TranscriptEvent::Direction::Outgoing || e.server != server)
            continue;
        const QJsonObject params =
            QJsonDocument::fromJson(e.raw).object().value("params"_L1).toObject();
        if (params.value("name"_L1).toString() == tool)
            return row;
    }
    return -1;
}

void TranscriptStore::clear()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool hadServers = !m_servers.isEmpty();
    m_cleared += m_dropped + size();
    m_events.clear();
    m_entries.clear();
    m_bytes = 0;
    m_pending.clear();
    m_servers.clear();
    m_serverSet.clear();
    m_dropped = 0;
    Q_EMIT reset();
    if (hadServers)
        Q_EMIT serversChanged();
}

void TranscriptStore::markAppCall(const QString &server, const QString &id)
{
    const QString key = server + u'\n' + id;
    if (m_appCalls.contains(key))
        return;
    m_appCalls.insert(key);
    m_appCallOrder.append(key);
    if (m_appCallOrder.size() > MaxAppCalls)
        m_appCalls.remove(m_appCallOrder.takeFirst());
    Q_EMIT appCallsMarked();
}

bool TranscriptStore::isAppCall(const QString &server, const Entry &entry) const
{
    return !m_appCalls.isEmpty() && (entry.isRequest || entry.isResponse) &&
           m_appCalls.contains(server + u'\n' + entry.id);
}

} // namespace Sonde

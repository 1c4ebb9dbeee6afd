// SPDX-License-Identifier: MIT
#include "transcript/markdownreport.h"
#include "protocol/jsonrpcmessage.h"

#include "transcript/exportcalls.h"
#include "transcript/exportreader.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Events that tell how the session recovered (or failed to): the verdicts, reconnects,
// losses, resumptions and the breaker.
const QSet<QString> &recoveryEvents()
{
    static const QSet<QString> events{u"connection-lost"_s,   u"restarting"_s,
                                      u"reconnect"_s,         u"reconnect-scheduled"_s,
                                      u"reconnect-attempt"_s, u"session-end"_s,
                                      u"breaker"_s,           u"outcome-uncertain"_s,
                                      u"sent-again"_s,        u"breaker-refused"_s,
                                      u"stream-resume"_s,     u"stream-resume-failed"_s,
                                      u"suspect-session"_s,   u"recovery-budget-spent"_s,
                                      u"keepalive-failed"_s,  u"call-waits-for-reconnect"_s,
                                      u"request-timed-out"_s, u"fault"_s};
    return events;
}

QString cell(QString text)
{
    text.replace(u'|', "\\|"_L1);
    text.replace(u'\n', u' ');
    return text.left(300);
}

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(u"HH:mm:ss.zzz"_s);
}

QString nameAndVersion(const QJsonObject &info)
{
    if (info.isEmpty())
        return u"unknown"_s;
    return u"%1 %2"_s.arg(info.value("name"_L1).toString(), info.value("version"_L1).toString())
        .trimmed();
}

QString summary(const QJsonObject &details)
{
    QStringList parts;
    for (auto it = details.begin(); it != details.end(); ++it) {
        if (it.key() == "type"_L1 || it.key() == "t_ms"_L1)
            continue;
        const QJsonValue v = it.value();
        const QString text = v.isString()   ? v.toString()
                             : v.isDouble() ? QString::number(v.toDouble(), 'g', 17)
                             : v.isBool()   ? (v.toBool() ? u"true"_s : u"false"_s)
                                            : u"…"_s;
        parts << u"%1=%2"_s.arg(it.key(), text);
    }
    return parts.join(", "_L1);
}

// A list of lines a section shows, up to MaxListed of them; the rest are counted, so a
// flood of errors costs a number and not a line each.
class Listed
{
public:
    void add(const QString &line)
    {
        if (m_lines.size() < MarkdownReport::MaxListed)
            m_lines.append(line);
        ++m_count;
    }
    qint64 count() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    QString text() const
    {
        QString out = m_lines.join(u'\n') + u'\n';
        if (m_count > m_lines.size())
            out += u"- … and %1 more (the JSON Lines export holds every event)\n"_s.arg(
                m_count - m_lines.size());
        return out;
    }

private:
    QStringList m_lines;
    qint64 m_count = 0;
};

// The report has listed stderr lines until this many errors were listed: a chatty server's
// log is not the report.
constexpr qint64 MaxStderrErrors = 200;

// What the first pass learns of one server: its section's table, eras, errors and story.
struct ServerFacts
{
    QString client = u"unknown"_s, serverInfo = u"unknown"_s, protocol = u"unknown"_s;
    QStringList eras;
    Listed errors;
    Listed story;
    QSet<int> generations;
    qint64 events = 0;
    qint64 calls = 0;
};

void learn(ServerFacts &f, const QJsonObject &r)
{
    ++f.events;
    f.generations.insert(r.value("gen"_L1).toInt());
    const QJsonObject msg = r.value("msg"_L1).toObject();
    const QJsonObject d = r.value("details"_L1).toObject();
    const QString event = r.value("event"_L1).toString();
    const QString dir = r.value("dir"_L1).toString();
    const QString at = clock(r.value("t_ms"_L1).toInteger());
    if (dir == "send"_L1) {
        // The requests CallPairer makes a call of, for the calls' heading.
        f.calls += msg.contains("method"_L1) && msg.contains("id"_L1);
        const QJsonObject params = msg.value("params"_L1).toObject();
        if (params.contains("clientInfo"_L1))
            f.client = nameAndVersion(params.value("clientInfo"_L1).toObject());
        const QJsonObject meta = params.value("_meta"_L1).toObject();
        if (meta.contains("io.modelcontextprotocol/clientInfo"_L1))
            f.client =
                nameAndVersion(meta.value("io.modelcontextprotocol/clientInfo"_L1).toObject());
    } else if (event == "ready"_L1) {
        f.serverInfo = nameAndVersion(d.value("server_info"_L1).toObject());
        f.protocol = d.value("protocol_version"_L1).toString(f.protocol);
    } else if (event == "era-chosen"_L1) {
        f.eras << u"%1 (generation %2): %3"_s.arg(d.value("era"_L1).toString())
                      .arg(r.value("gen"_L1).toInt())
                      .arg(d.value("reason"_L1).toString());
    } else if (dir == "violation"_L1) {
        f.errors.add(u"- %1 protocol violation: %2"_s.arg(at, event));
    } else if (dir == "stderr"_L1 && f.errors.count() < MaxStderrErrors) {
        const QString line = r.value("line"_L1).toString();
        if (line.contains("error"_L1, Qt::CaseInsensitive))
            f.errors.add(u"- %1 stderr: `%2`"_s.arg(at, cell(line)));
    }
    if (dir == "event"_L1 && recoveryEvents().contains(event))
        f.story.add(u"- %1 gen %2 **%3** %4"_s.arg(at)
                        .arg(r.value("gen"_L1).toInt())
                        .arg(event, cell(summary(d))));
}

bool writeServer(ExportReader &in, ExportOutput &out, const QString &server, ServerFacts &f)
{
    QString head = u"\n## Server `%1`\n\n"_s.arg(server);
    head += u"| | |\n|---|---|\n"_s;
    head += u"| Client | %1 |\n| Server | %2 |\n| Protocol version | %3 |\n"_s.arg(
        cell(f.client), cell(f.serverInfo), cell(f.protocol));
    head += u"| Generations | %1 |\n| Events | %2 |\n"_s.arg(f.generations.size()).arg(f.events);
    head += u"\n### Era\n\n"_s;
    head += f.eras.isEmpty() ? u"Not recorded.\n"_s : u"- "_s + f.eras.join("\n- "_L1) + u'\n';
    head += u"\n### Calls (%1)\n\n"_s.arg(f.calls);
    if (f.calls > 0)
        head +=
            u"| Time | Gen | Id | Method | Target | Outcome | ms |\n|---|---|---|---|---|---|---|\n"_s;
    out.put(head.toUtf8());
    CallPairer pairer(MarkdownReport::Window, false, [&](ExportedCall &&c) {
        out.put(u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 |\n"_s.arg(clock(c.startMs))
                    .arg(c.generation)
                    .arg(cell(JsonRpcMessage::idText(c.id)), cell(c.method), cell(c.target),
                         cell(c.outcome), c.endMs ? QString::number(*c.endMs - c.startMs) : u"–"_s)
                    .toUtf8());
        if (c.isError)
            f.errors.add(u"- %1 `%2 %3` (id %4): %5"_s.arg(clock(c.startMs), c.method, c.target,
                                                           JsonRpcMessage::idText(c.id),
                                                           cell(c.outcome)));
    });
    // The calls are in sends, answers and verdicts: a server's other records are not read.
    if (!in.read(server, {u"send"_s, u"recv"_s, u"event"_s}, [&pairer](const QJsonObject &r) {
            pairer.add(r);
            return true;
        }))
        return false;
    pairer.finish();
    QString tail = u"\n### Errors (%1)\n\n"_s.arg(f.errors.count());
    tail += f.errors.isEmpty() ? u"None.\n"_s : f.errors.text();
    tail += u"\n### Recovery\n\n"_s;
    tail += f.story.isEmpty()
                ? u"Nothing to recover from: no reconnects, verdicts or resumptions.\n"_s
                : f.story.text();
    out.put(tail.toUtf8());
    return true;
}

} // namespace

QByteArray MarkdownReport::write(const QList<QJsonObject> &records)
{
    return ExportReader::documentAsIs(
        records, {}, [](ExportReader &in, ExportOutput &out) { return write(in, out); });
}

bool MarkdownReport::write(ExportReader &in, ExportOutput &out)
{
    QStringList servers;
    QHash<QString, ServerFacts> facts;
    qint64 events = 0, firstMs = 0, lastMs = 0;
    if (!in.read([&](const QJsonObject &r) {
            const QString s = r.value("server"_L1).toString();
            auto it = facts.find(s);
            if (it == facts.end()) {
                servers.append(s);
                it = facts.insert(s, {});
            }
            learn(*it, r);
            // The span of the events, whatever order they come in (a history holds runs
            // and imports in the order they were recorded, not in time).
            const qint64 t = r.value("t_ms"_L1).toInteger();
            firstMs = events == 0 ? t : std::min(firstMs, t);
            lastMs = events == 0 ? t : std::max(lastMs, t);
            ++events;
            return true;
        }))
        return false;
    QString head = u"# Sonde transcript report\n\n"_s;
    if (events == 0) {
        out.put((head + u"The transcript is empty.\n"_s).toUtf8());
        return true;
    }
    head += u"%1 events from %2 to %3 (UTC), %4 server(s).\n"_s.arg(events)
                .arg(QDateTime::fromMSecsSinceEpoch(firstMs, Qt::UTC).toString(Qt::ISODateWithMs),
                     QDateTime::fromMSecsSinceEpoch(lastMs, Qt::UTC).toString(Qt::ISODateWithMs))
                .arg(servers.size());
    out.put(head.toUtf8());
    for (const QString &s : std::as_const(servers))
        if (!writeServer(in, out, s, facts[s]))
            return false;
    return true;
}

} // namespace Sonde

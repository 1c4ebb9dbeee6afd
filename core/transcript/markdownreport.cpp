// SPDX-License-Identifier: MIT
#include "transcript/markdownreport.h"

#include "transcript/exportcalls.h"

#include <QDateTime>
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
    static const QSet<QString> events{u"connection-lost"_s,
                                      u"restarting"_s,
                                      u"reconnect"_s,
                                      u"reconnect-scheduled"_s,
                                      u"reconnect-attempt"_s,
                                      u"session-end"_s,
                                      u"breaker"_s,
                                      u"outcome-uncertain"_s,
                                      u"sent-again"_s,
                                      u"breaker-refused"_s,
                                      u"stream-resume"_s,
                                      u"suspect-session"_s,
                                      u"recovery-budget-spent"_s,
                                      u"keepalive-failed"_s,
                                      u"call-waits-for-reconnect"_s,
                                      u"request-timed-out"_s,
                                      u"fault"_s};
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

void writeServer(QString &out, const QString &server, const QList<QJsonObject> &records)
{
    QString client = u"unknown"_s, serverInfo = u"unknown"_s, protocol = u"unknown"_s;
    QStringList eras;
    QStringList errors;
    QStringList story;
    QSet<int> generations;
    for (const QJsonObject &r : records) {
        generations.insert(r.value("gen"_L1).toInt());
        const QJsonObject msg = r.value("msg"_L1).toObject();
        const QJsonObject d = r.value("details"_L1).toObject();
        const QString event = r.value("event"_L1).toString();
        const QString dir = r.value("dir"_L1).toString();
        const QString at = clock(r.value("t_ms"_L1).toInteger());
        if (dir == "send"_L1) {
            const QJsonObject params = msg.value("params"_L1).toObject();
            if (params.contains("clientInfo"_L1))
                client = nameAndVersion(params.value("clientInfo"_L1).toObject());
            const QJsonObject meta = params.value("_meta"_L1).toObject();
            if (meta.contains("io.modelcontextprotocol/clientInfo"_L1))
                client =
                    nameAndVersion(meta.value("io.modelcontextprotocol/clientInfo"_L1).toObject());
        } else if (event == "ready"_L1) {
            serverInfo = nameAndVersion(d.value("server_info"_L1).toObject());
            protocol = d.value("protocol_version"_L1).toString(protocol);
        } else if (event == "era-chosen"_L1) {
            eras << u"%1 (generation %2): %3"_s.arg(d.value("era"_L1).toString())
                        .arg(r.value("gen"_L1).toInt())
                        .arg(d.value("reason"_L1).toString());
        } else if (dir == "violation"_L1) {
            errors << u"- %1 protocol violation: %2"_s.arg(at, event);
        } else if (dir == "stderr"_L1 && errors.size() < 200) {
            const QString line = r.value("line"_L1).toString();
            if (line.contains("error"_L1, Qt::CaseInsensitive))
                errors << u"- %1 stderr: `%2`"_s.arg(at, cell(line));
        }
        if (dir == "event"_L1 && recoveryEvents().contains(event))
            story << u"- %1 gen %2 **%3** %4"_s.arg(at)
                         .arg(r.value("gen"_L1).toInt())
                         .arg(event, cell(summary(d)));
    }
    const QList<ExportedCall> calls = ExportCalls::pair(records);
    out += u"\n## Server `%1`\n\n"_s.arg(server);
    out += u"| | |\n|---|---|\n"_s;
    out += u"| Client | %1 |\n| Server | %2 |\n| Protocol version | %3 |\n"_s.arg(
        cell(client), cell(serverInfo), cell(protocol));
    out += u"| Generations | %1 |\n| Events | %2 |\n"_s.arg(generations.size()).arg(records.size());
    out += u"\n### Era\n\n"_s;
    out += eras.isEmpty() ? u"Not recorded.\n"_s : u"- "_s + eras.join("\n- "_L1) + u'\n';
    out += u"\n### Calls (%1)\n\n"_s.arg(calls.size());
    if (!calls.isEmpty())
        out +=
            u"| Time | Gen | Id | Method | Target | Outcome | ms |\n|---|---|---|---|---|---|---|\n"_s;
    for (const ExportedCall &c : calls) {
        out += u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 |\n"_s.arg(clock(c.startMs))
                   .arg(c.generation)
                   .arg(cell(ExportCalls::idText(c.id)), cell(c.method), cell(c.target),
                        cell(c.outcome), c.endMs ? QString::number(*c.endMs - c.startMs) : u"–"_s);
        if (c.isError)
            errors << u"- %1 `%2 %3` (id %4): %5"_s.arg(clock(c.startMs), c.method, c.target,
                                                        ExportCalls::idText(c.id), cell(c.outcome));
    }
    out += u"\n### Errors (%1)\n\n"_s.arg(errors.size());
    out += errors.isEmpty() ? u"None.\n"_s : errors.join(u'\n') + u'\n';
    out += u"\n### Recovery\n\n"_s;
    out += story.isEmpty() ? u"Nothing to recover from: no reconnects, verdicts or resumptions.\n"_s
                           : story.join(u'\n') + u'\n';
}

} // namespace

QByteArray MarkdownReport::write(const QList<QJsonObject> &records)
{
    QStringList servers;
    QHash<QString, QList<QJsonObject>> byServer;
    for (const QJsonObject &r : records) {
        const QString s = r.value("server"_L1).toString();
        if (!byServer.contains(s))
            servers.append(s);
        byServer[s].append(r);
    }
    QString out = u"# Sonde transcript report\n\n"_s;
    if (records.isEmpty()) {
        out += u"The transcript is empty.\n"_s;
        return out.toUtf8();
    }
    out += u"%1 events from %2 to %3 (UTC), %4 server(s).\n"_s.arg(records.size())
               .arg(QDateTime::fromMSecsSinceEpoch(records.first().value("t_ms"_L1).toInteger(),
                                                   Qt::UTC)
                        .toString(Qt::ISODateWithMs),
                    QDateTime::fromMSecsSinceEpoch(records.last().value("t_ms"_L1).toInteger(),
                                                   Qt::UTC)
                        .toString(Qt::ISODateWithMs))
               .arg(servers.size());
    for (const QString &s : std::as_const(servers))
        writeServer(out, s, byServer.value(s));
    return out.toUtf8();
}

} // namespace Sonde

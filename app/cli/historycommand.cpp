// SPDX-License-Identifier: MIT
#include "historycommand.h"

#include "clioutput.h"
#include "historyexportsource.h"
#include "historyimporter.h"
#include "historystore.h"
#include "transcript/transcriptexport.h"
#include "transcriptfilereader.h"
#include "transport/otlpsender.h"
#include "util/commandline.h"
#include "util/signalwatcher.h"

#include <QEventLoop>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QSaveFile>
#include <QThread>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

const QString Who = u"sonde-cli history"_s;

int usage(const QString &why)
{
    return CliOutput::usageError(why, Who);
}

int failure(const QString &why)
{
    CliOutput::complain(why, Who);
    return 1;
}

void printLine(const QJsonObject &o)
{
    CliOutput::print(o, CliOutput::Layout::Line);
}

// --name value pairs among the positional arguments; false with the reason on an unknown
// option or a missing value.
bool readOptions(const QStringList &args, const QStringList &known, QStringList *positional,
                 QHash<QString, QString> *values, QString *error)
{
    CommandLine line;
    for (const QString &name : known)
        line.addValueOption(name, [values, name](const QString &v) {
            values->insert(name, v);
            return QString();
        });
    if (line.parse(args) != CommandLine::Outcome::Parsed) {
        *error = line.errorText();
        return false;
    }
    *positional = line.positionalArguments();
    return true;
}

int import(const QStringList &positional, const QHash<QString, QString> &o,
           const std::atomic<bool> &stop)
{
    if (positional.size() != 1 || !o.contains(u"--db"_s))
        return usage(u"history import FILE --db DB (Sonde's JSONL or the Inspector's JSON)"_s);
    QFile in(positional.first());
    if (!in.open(QIODevice::ReadOnly))
        return failure(u"cannot read %1: %2"_s.arg(in.fileName(), in.errorString()));
    QString error;
    // Sonde's JSON Lines or the MCP Inspector's export, told before the history is touched.
    const auto format = TranscriptFileReader::formatOf(in, &error);
    if (!format)
        return failure(u"%1: %2"_s.arg(in.fileName(), error));
    HistoryStore store;
    if (!store.open(o.value(u"--db"_s), &error, u"import "_s + in.fileName()))
        return failure(error);
    const HistoryImporter::Result r = TranscriptFileReader::importInto(
        in, *format, in.fileName(), store, [&stop] { return stop.load(); });
    if (*format == TranscriptFileReader::Format::InspectorJson && !r.error.isEmpty() &&
        r.imported == 0) // the file was not an export Sonde reads: nothing was written
        return failure(u"%1: %2"_s.arg(in.fileName(), r.error));
    QJsonArray lines;
    for (qint64 n : r.skippedLines)
        lines.append(n);
    QJsonObject summary{{"format"_L1, TranscriptFileReader::formatName(*format)},
                        {"imported"_L1, r.imported},
                        {"skipped"_L1, r.skipped},
                        {"skipped_lines"_L1, lines},
                        {"reasons"_L1, QJsonArray::fromStringList(r.reasons)}};
    if (!r.error.isEmpty())
        summary.insert("error"_L1, r.error);
    printLine(summary);
    return r.error.isEmpty() ? 0 : 1;
}

// A history to read: one that is not there is not made (search and export write nothing).
QString openExisting(HistoryStore &store, const QString &path)
{
    if (!QFile::exists(path))
        return u"no history at %1"_s.arg(path);
    QString error;
    return store.open(path, &error) ? QString() : error;
}

int search(const QStringList &positional, const QHash<QString, QString> &o)
{
    if (positional.size() != 1 || !o.contains(u"--db"_s))
        return usage(u"history search TEXT --db DB [--server S] [--limit N]"_s);
    bool ok = true;
    const int limit = o.contains(u"--limit"_s) ? o.value(u"--limit"_s).toInt(&ok) : 100;
    if (!ok || limit <= 0)
        return usage(u"--limit takes a positive number"_s);
    HistoryStore store;
    if (const QString why = openExisting(store, o.value(u"--db"_s)); !why.isEmpty())
        return failure(why);
    HistoryFilter filter;
    filter.text = positional.first();
    filter.server = o.value(u"--server"_s);
    for (const QJsonObject &record : store.records(filter, 0, limit))
        printLine(record);
    return store.lastError().isEmpty() ? 0 : failure(store.lastError());
}

// The sessions recorded, newest first, a JSON line each: their ids are what export --session
// takes.
int sessions(const QStringList &positional, const QHash<QString, QString> &o)
{
    if (!positional.isEmpty() || !o.contains(u"--db"_s))
        return usage(u"history sessions --db DB [--server S]"_s);
    HistoryStore store;
    if (const QString why = openExisting(store, o.value(u"--db"_s)); !why.isEmpty())
        return failure(why);
    const QString before = store.lastError();
    for (const HistoryStore::Session &s : store.sessions(o.value(u"--server"_s)))
        printLine(QJsonObject{{"session"_L1, s.id},
                              {"server"_L1, s.server},
                              {"gen"_L1, s.generation},
                              {"started_ms"_L1, s.startedMs},
                              {"ended_ms"_L1, s.endedMs},
                              {"events"_L1, s.events},
                              {"era"_L1, s.era},
                              {"protocol_version"_L1, s.protocolVersion}});
    return store.lastError() == before ? 0 : failure(store.lastError());
}

// The command runs on a thread of its own: this loop lives for the POST only.
OtlpSender::Result sendToCollector(const QUrl &url, const QByteArray &document)
{
    OtlpSender sender;
    OtlpSender::Result result;
    QEventLoop loop;
    QObject::connect(&sender, &OtlpSender::finished, &loop,
                     [&result, &loop](const OtlpSender::Result &r) {
                         result = r;
                         loop.quit();
                     });
    sender.send(url, document);
    loop.exec();
    return result;
}

int exportHistory(const QStringList &positional, const QHash<QString, QString> &o,
                  const std::atomic<bool> &stop)
{
    if (!positional.isEmpty() || !o.contains(u"--db"_s) || !o.contains(u"--format"_s) ||
        !o.contains(u"--out"_s))
        return usage(u"history export --db DB --format jsonl|md|har|otlp --out FILE "
                     u"[--session ID] [--to URL]"_s);
    const auto format = TranscriptExport::formatFromName(o.value(u"--format"_s));
    if (!format)
        return usage(u"--format is jsonl, md, har or otlp, not %1"_s.arg(o.value(u"--format"_s)));
    const QUrl collector(o.value(u"--to"_s), QUrl::StrictMode);
    if (o.contains(u"--to"_s)) {
        if (*format != TranscriptExport::Format::Otlp)
            return usage(u"--to sends OTLP to a collector: it needs --format otlp"_s);
        if (const QString why = OtlpSender::checkUrl(collector); !why.isEmpty())
            return usage(u"--to: %1"_s.arg(why));
    }
    HistoryFilter filter;
    if (o.contains(u"--session"_s)) {
        bool ok = false;
        filter.sessionId = o.value(u"--session"_s).toLongLong(&ok);
        if (!ok || filter.sessionId <= 0)
            return usage(u"--session takes a session id (history sessions lists them)"_s);
    }
    HistoryStore store;
    if (const QString why = openExisting(store, o.value(u"--db"_s)); !why.isEmpty())
        return failure(why);
    // Streamed: the history is read a page at a time, two or three times (ExportReader), so
    // a million events hold a page and a window of calls, not a million records.
    const TranscriptExport::Options options; // redacted, session ids masked (docs)
    const HistoryExportSource source(store, filter);
    TranscriptExport::Counts counts; // learned on the way, for the summary line
    QString error;
    QSaveFile out(o.value(u"--out"_s));
    if (!out.open(QIODevice::WriteOnly))
        return failure(u"cannot write %1: %2"_s.arg(out.fileName(), out.errorString()));
    if (!TranscriptExport::write(
            *format, source, options, out, &error, {}, [&stop](qint64) { return !stop.load(); },
            &counts))
        return failure(u"cannot export to %1: %2"_s.arg(out.fileName(), error));
    if (!out.commit())
        return failure(u"cannot write %1: %2"_s.arg(out.fileName(), out.errorString()));
    QJsonObject summary{{"format"_L1, TranscriptExport::formatName(*format)},
                        {"out"_L1, out.fileName()},
                        {"records"_L1, counts.events},
                        {"included"_L1, TranscriptExport::describe(*format, counts, options)}};
    if (!o.contains(u"--to"_s)) {
        printLine(summary);
        return 0;
    }
    // The file is written whatever the collector says; the send is one POST, bounded.
    // The collector takes the document whole (one POST): it is read back from the file.
    QByteArray document;
    if (!OtlpSender::readDocument(out.fileName(), OtlpSender::DefaultMaxDocumentBytes, &document,
                                  &error)) {
        summary.insert("sent"_L1, QJsonObject{{"url"_L1, collector.toString()}, {"ok"_L1, false}});
        printLine(summary); // the file is written: said on stdout as for any export
        return failure(u"not sent to the collector at %1: %2"_s.arg(collector.toString(), error));
    }
    const OtlpSender::Result sent = sendToCollector(collector, document);
    summary.insert("sent"_L1, QJsonObject{{"url"_L1, collector.toString()},
                                          {"status"_L1, sent.status},
                                          {"ok"_L1, sent.ok()}});
    printLine(summary);
    return sent.ok() ? 0 : failure(sent.describe());
}

} // namespace

HistoryCommand::HistoryCommand(QStringList args, QObject *parent)
    : CliCommand(parent), m_args(std::move(args))
{
}

HistoryCommand::~HistoryCommand()
{
    if (m_worker) {
        m_stop = true;
        m_worker->wait();
    }
}

void HistoryCommand::start()
{
    m_worker.reset(QThread::create([this] { m_code = run(m_args, m_stop); }));
    m_worker->setObjectName(u"sonde-history"_s);
    connect(m_worker.get(), &QThread::finished, this, &HistoryCommand::onWorkDone);
    m_worker->start();
}

void HistoryCommand::onWorkDone()
{
    if (!m_worker) // ended already, by abandon()
        return;
    m_worker->wait();
    m_worker.reset();
    Q_EMIT finished(m_signal ? SignalWatcher::exitCodeFor(m_signal) : m_code.load());
}

void HistoryCommand::interrupt(int signo)
{
    if (std::exchange(m_signal, signo) || !m_worker)
        return;
    const QString name = signalName(signo);
    CliOutput::complain(
        u"%1: stopping (at most %2 s; again to stop at once)"_s.arg(name).arg(StopBoundMs / 1000),
        Who);
    m_stop = true;
}

void HistoryCommand::abandon(int signo)
{
    if (!m_worker || m_worker->isFinished()) { // its end is on its way here
        onWorkDone();
        return;
    }
    // A search's one statement, or a collector that does not answer: not stopped between
    // batches. What the history holds stays whole (see StopBoundMs).
    CliOutput::complain(
        u"the stop took over %1 s: leaving without waiting for it"_s.arg(StopBoundMs / 1000), Who);
    std::fflush(stdout);
    ::_exit(SignalWatcher::exitCodeFor(signo));
}

int HistoryCommand::run(const QStringList &args, const std::atomic<bool> &stop)
{
    if (args.isEmpty())
        return usage(u"history needs import, search, sessions or export"_s);
    QStringList positional;
    QHash<QString, QString> values;
    QString error;
    if (!readOptions(args.mid(1),
                     {u"--db"_s, u"--server"_s, u"--limit"_s, u"--format"_s, u"--out"_s,
                      u"--session"_s, u"--to"_s},
                     &positional, &values, &error))
        return usage(error);
    if (args.first() == "import"_L1)
        return import(positional, values, stop);
    if (args.first() == "search"_L1)
        return search(positional, values);
    if (args.first() == "sessions"_L1)
        return sessions(positional, values);
    if (args.first() == "export"_L1)
        return exportHistory(positional, values, stop);
    return usage(
        u"unknown history command %1 (import, search, sessions or export)"_s.arg(args.first()));
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "collectioncommand.h"

#include "clioutput.h"
#include "junitreport.h"
#include "util/commandline.h"
#include "util/signalwatcher.h"

#include <QJsonArray>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

bool CollectionCommand::parse(const QStringList &args, Options *out, QString *error)
{
    CommandLine line;
    line.addFlag(u"--quiet"_s, [out] { out->quiet = true; });
    line.addValueOption(u"--auth-agent"_s, [out](const QString &v) {
        out->agent = ServerConfig::authAgentFromName(v);
        return out->agent
                   ? QString()
                   : u"--auth-agent wants browser, no-browser or headless, got \"%1\""_s.arg(v);
    });
    line.addValueOption(u"--junit"_s, [out](const QString &v) {
        out->junitPath = v;
        return QString();
    });
    line.setPositionalHandler([out](const QString &word) {
        if (!out->path.isEmpty())
            return u"run takes one collection, got \"%1\" too"_s.arg(word);
        out->path = word;
        return QString();
    });
    if (line.parse(args) != CommandLine::Outcome::Parsed) {
        switch (line.problem()) {
        case CommandLine::Problem::UnknownOption:
            *error = u"run: unknown option %1 (run takes --junit FILE, --auth-agent AGENT and "
                     u"--quiet)"_s.arg(line.problemOption());
            break;
        case CommandLine::Problem::MissingValue:
            // An agent left out is refused as an agent not known, naming the three.
            *error = line.problemOption() == "--auth-agent"_L1
                         ? u"--auth-agent wants browser, no-browser or headless, got \"\""_s
                         : line.errorText();
            break;
        default:
            *error = line.errorText();
        }
        return false;
    }
    if (out->path.isEmpty()) {
        *error = u"usage: sonde-cli run COLLECTION.json [--junit OUT.xml] [--auth-agent AGENT] "
                 u"[--quiet]"_s;
        return false;
    }
    return true;
}

CollectionCommand::CollectionCommand(Options options, QObject *parent)
    : CliCommand(parent), m_options(std::move(options))
{
}

CollectionCommand::~CollectionCommand() = default;

void CollectionCommand::complain(const QString &message) const
{
    CliOutput::complain(message);
}

void CollectionCommand::interrupt(int signo)
{
    Q_EMIT finished(SignalWatcher::exitCodeFor(signo));
}

void CollectionCommand::start()
{
    m_startedAt = QDateTime::currentDateTimeUtc();
    m_clock.start();
    QString error;
    std::optional<Collection> collection = Collection::load(m_options.path, &error);
    if (!collection) {
        complain(error);
        QTimer::singleShot(0, this, [this] { Q_EMIT finished(2); });
        return;
    }
    // A one-shot run must not pay the engine's 500 ms grace at the end, as the CLI's commands.
    collection->server.shutdownGraceMs = 100;
    collection->server.auth.agent = m_options.agent.value_or(ServerConfig::Auth::Agent::NoBrowser);
    m_run = std::make_unique<CollectionRun>(std::move(*collection));
    connect(m_run.get(), &CollectionRun::callFinished, this, &CollectionCommand::onCallFinished);
    connect(m_run.get(), &CollectionRun::finished, this, &CollectionCommand::onRunFinished);
    connect(m_run.get(), &CollectionRun::authorizationNeeded, this,
            &CollectionCommand::onAuthorizationNeeded);
    m_run->start();
}

void CollectionCommand::onAuthorizationNeeded(const QUrl &url)
{
    // As the CLI's commands: the one thing a person must do, once per flow, even with --quiet.
    if (m_options.agent == ServerConfig::Auth::Agent::Headless || url == m_printedAuthorizationUrl)
        return;
    m_printedAuthorizationUrl = url;
    complain(u"%1 asks for authorization; open this URL in a browser:\n  %2"_s.arg(
        m_run->collection().server.name, url.toString()));
}

void CollectionCommand::onCallFinished(const CollectionRun::Result &r)
{
    CliOutput::print({{"call"_L1, r.name},
                      {"method"_L1, r.method},
                      {"passed"_L1, r.passed},
                      {"elapsed_ms"_L1, r.elapsedMs},
                      {"reasons"_L1, QJsonArray::fromStringList(r.reasons)}},
                     CliOutput::Layout::Line);
}

void CollectionCommand::onRunFinished()
{
    const QList<CollectionRun::Result> &results = m_run->results();
    const QString connectionError = m_run->connectionError();
    int code = m_run->allPassed() ? 0 : 1;
    if (!connectionError.isEmpty()) {
        complain(connectionError);
        code = 2;
    }
    const qsizetype passed = std::count_if(results.cbegin(), results.cend(),
                                           [](const CollectionRun::Result &r) { return r.passed; });
    if (!m_options.quiet && connectionError.isEmpty())
        complain(u"%1: %2 of %3 calls passed"_s.arg(m_run->collection().name)
                     .arg(passed)
                     .arg(results.size()));
    if (!m_options.junitPath.isEmpty()) {
        const QByteArray xml = JUnitReport::toXml(m_run->collection().name, results,
                                                  connectionError, m_startedAt, m_clock.elapsed());
        QString error;
        if (!JUnitReport::write(m_options.junitPath, xml, &error)) {
            complain(error);
            code = 2;
        }
    }
    Q_EMIT finished(code);
}

} // namespace Sonde

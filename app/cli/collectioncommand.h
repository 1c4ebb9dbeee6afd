// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"
#include "collectionrun.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace Sonde {

// `sonde-cli run COLLECTION.json [--junit OUT.xml] [--quiet]`: runs a saved collection
// (docs/collections.md) headless for CI. One JSON line per call on stdout; exit 0 when every
// expectation holds, 1 when one fails, 2 on a usage error, a file that is not a collection
// or a server that cannot be reached. Thread: the main thread.
class CollectionCommand : public CliCommand
{
    Q_OBJECT
public:
    struct Options
    {
        QString path;
        QString junitPath;
        bool quiet = false;
        // How an OAuth server's authorization is got; no-browser (the URL printed) as the
        // CLI's commands when not given.
        std::optional<ServerConfig::Auth::Agent> agent;
    };
    // `args`: what follows "run".
    static bool parse(const QStringList &args, Options *out, QString *error);

    explicit CollectionCommand(Options options, QObject *parent = nullptr);
    ~CollectionCommand() override;
    void start() override;
    // Ends at once: leaving destroys the run and its CoreHost, whose transports end the
    // server process.
    void interrupt(int signo) override;

private:
    void onCallFinished(const CollectionRun::Result &r);
    void onRunFinished();
    void onAuthorizationNeeded(const QUrl &url);
    void complain(const QString &message) const;

    Options m_options;
    std::unique_ptr<CollectionRun> m_run;
    QDateTime m_startedAt;
    QElapsedTimer m_clock;
    QUrl m_printedAuthorizationUrl;
};

} // namespace Sonde

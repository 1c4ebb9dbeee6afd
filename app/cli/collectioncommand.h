// SPDX-License-Identifier: MIT
#pragma once

#include "collectionrun.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <memory>

namespace Sonde {

// `sonde-cli run COLLECTION.json [--junit OUT.xml] [--quiet]`: runs a saved collection
// (docs/collections.md) headless for CI. One JSON line per call on stdout; exit 0 when every
// expectation holds, 1 when one fails, 2 on a usage error, a file that is not a collection
// or a server that cannot be reached. Thread: the main thread.
class CollectionCommand : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString path;
        QString junitPath;
        bool quiet = false;
    };
    static bool parse(const QStringList &args, Options *out, QString *error);
    // Parses `args` (after "run"), runs the event loop until the run ends, returns the code.
    static int main(const QStringList &args);

    explicit CollectionCommand(Options options, QObject *parent = nullptr);
    ~CollectionCommand() override;
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onCallFinished(const CollectionRun::Result &r);
    void onRunFinished();
    void complain(const QString &message) const;

    Options m_options;
    std::unique_ptr<CollectionRun> m_run;
    QDateTime m_startedAt;
    QElapsedTimer m_clock;
};

} // namespace Sonde

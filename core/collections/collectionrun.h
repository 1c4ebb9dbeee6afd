// SPDX-License-Identifier: MIT
#pragma once

#include "collection.h"
#include "transcript/redactor.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <memory>
#include <optional>

namespace Sonde {

class CoreHost;
struct CallOutcome;
struct SessionSnapshot;

// Runs a collection's calls in order on its own CoreHost, as sonde-cli runs a command: connect,
// (tools/list once when a call checks its outputSchema), each call, shut down. One Result per
// call; a server that cannot be reached ends the run with connectionError() and no results.
// Reasons are redacted with the server's configured secrets. Thread: the caller's.
class CollectionRun : public QObject
{
    Q_OBJECT
public:
    struct Result
    {
        QString name;
        QString method;
        bool passed = false;
        QStringList reasons; // why it failed, one per expectation that did not hold
        qint64 elapsedMs = 0;
    };

    explicit CollectionRun(Collection collection, QObject *parent = nullptr);
    ~CollectionRun() override;
    void start();
    const Collection &collection() const { return m_collection; }
    const QList<Result> &results() const { return m_results; }
    QString connectionError() const { return m_connectionError; }
    bool allPassed() const;

Q_SIGNALS:
    void callFinished(const Sonde::CollectionRun::Result &result);
    // An OAuth flow waits for a person to open `url` (the no-browser agent).
    void authorizationNeeded(const QUrl &url);
    // After the session is shut down: results() (or connectionError()) are final.
    void finished();

private:
    void onSessionChanged(const SessionSnapshot &s);
    void onCallFinished(const CallOutcome &o);
    void fetchSchemas();
    void runNext();
    void stop();

    Collection m_collection;
    Redactor m_redactor;
    std::unique_ptr<CoreHost> m_host;
    QHash<QString, QJsonObject> m_outputSchemas; // tool -> outputSchema, from tools/list
    quint64 m_schemaTicket = 0;
    quint64 m_callTicket = 0;
    qsizetype m_next = 0;
    QList<Result> m_results;
    QString m_connectionError;
    bool m_connected = false;
    bool m_stopping = false;
    bool m_finished = false;
};

} // namespace Sonde

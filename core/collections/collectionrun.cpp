// SPDX-License-Identifier: MIT
#include "collectionrun.h"

#include "engine/corehost.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

CollectionRun::CollectionRun(Collection collection, QObject *parent)
    : QObject(parent), m_collection(std::move(collection))
{
    m_redactor.addSecrets(m_collection.server);
}

CollectionRun::~CollectionRun() = default;

bool CollectionRun::allPassed() const
{
    return m_connectionError.isEmpty() && std::all_of(m_results.cbegin(), m_results.cend(),
                                                      [](const Result &r) { return r.passed; });
}

void CollectionRun::start()
{
    m_host = std::make_unique<CoreHost>();
    connect(m_host.get(), &CoreHost::sessionChanged, this, &CollectionRun::onSessionChanged);
    connect(m_host.get(), &CoreHost::callFinished, this, &CollectionRun::onCallFinished);
    connect(m_host.get(), &CoreHost::authChanged, this, [this](const AuthState &state) {
        if (state.status == AuthState::Status::AwaitingUser && !state.authorizationUrl.isEmpty())
            Q_EMIT authorizationNeeded(state.authorizationUrl);
    });
    connect(m_host.get(), &CoreHost::shutdownFinished, this, [this] {
        if (!std::exchange(m_finished, true))
            Q_EMIT finished();
    });
    m_host->addServer(m_collection.server);
}

void CollectionRun::onSessionChanged(const SessionSnapshot &s)
{
    if (m_connected || m_stopping)
        return;
    if (s.state == SessionSnapshot::State::Ready) {
        m_connected = true;
        fetchSchemas();
    } else if (s.state == SessionSnapshot::State::Failed) {
        m_connectionError = m_redactor.apply(u"cannot connect to %1 (%2): %3"_s.arg(
            s.server, m_collection.server.displayCommand(), s.lastError.message()));
        stop();
    }
}

void CollectionRun::fetchSchemas()
{
    const bool needed =
        std::any_of(m_collection.calls.cbegin(), m_collection.calls.cend(),
                    [](const CollectionCall &c) { return c.expect.needsOutputSchema(); });
    if (!needed)
        return runNext();
    m_schemaTicket = m_host->call(m_collection.server.name, u"tools/list"_s);
}

void CollectionRun::runNext()
{
    if (m_next >= m_collection.calls.size())
        return stop();
    const CollectionCall &c = m_collection.calls.at(m_next);
    m_callTicket = m_host->call(m_collection.server.name, c.method, c.params);
}

void CollectionRun::onCallFinished(const CallOutcome &o)
{
    if (o.ticket == m_schemaTicket) {
        // A failed tools/list leaves no schemas: the calls that check one say so.
        for (const QJsonValue &t : o.result.toObject().value("tools"_L1).toArray()) {
            const QJsonObject tool = t.toObject();
            if (tool.value("outputSchema"_L1).isObject())
                m_outputSchemas.insert(tool.value("name"_L1).toString(),
                                       tool.value("outputSchema"_L1).toObject());
        }
        return runNext();
    }
    if (o.ticket != m_callTicket)
        return;
    const CollectionCall &c = m_collection.calls.at(m_next++);
    CallExpectation::Answer a;
    a.toolCall = !c.tool.isEmpty();
    a.elapsedMs = o.finishedMs - o.startedMs;
    // A tool's isError result comes back as an application error that still carries it.
    const bool toolResult =
        a.toolCall && o.error.kind() == Error::Kind::Application && o.result.isObject();
    if (o.ok() || toolResult) {
        a.result = o.result;
    } else {
        a.rpcError = true;
        a.errorMessage = o.error.message();
    }
    if (m_outputSchemas.contains(c.tool))
        a.outputSchema = m_outputSchemas.value(c.tool);
    Result r{c.name, c.method, false, c.expect.check(a), a.elapsedMs};
    for (QString &reason : r.reasons)
        reason = m_redactor.apply(reason);
    r.passed = r.reasons.isEmpty();
    m_results.append(r);
    Q_EMIT callFinished(r);
    runNext();
}

void CollectionRun::stop()
{
    if (std::exchange(m_stopping, true))
        return;
    m_host->shutdown();
}

} // namespace Sonde

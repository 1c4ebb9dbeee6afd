// SPDX-License-Identifier: MIT
#include "application/history/runrecording.h"

#include "application/history/historyretention.h"
#include "application/servers/serverstore.h"
#include "engine/corehost.h"
#include "historyrecorder.h"
#include "historystore.h"

namespace Sonde {

RunRecording::RunRecording(CoreHost &host, QObject *parent)
    : QObject(parent), m_host(host), m_recorder(std::make_unique<HistoryRecorder>())
{
}

RunRecording::~RunRecording() = default;

void RunRecording::start(const QString &path, const HistoryRetention &retention,
                         const QString &source)
{
    m_path = path;
    if (m_path.isEmpty())
        m_path = HistoryRecorder::defaultPath();
    m_recorder->start(m_path, source, retention.policy());
    connect(&m_host, &CoreHost::transcriptBatch, m_recorder.get(), &HistoryRecorder::record);
    connect(m_recorder.get(), &HistoryRecorder::failed, this, [this](const QString &reason) {
        Q_EMIT problem(tr("History is not recorded: %1").arg(reason));
    });
    connect(m_recorder.get(), &HistoryRecorder::opened, this, &RunRecording::tryOpenReader);
    tryOpenReader(); // it may have opened already
}

void RunRecording::tryOpenReader()
{
    if (m_reader || m_recorder->runId() == 0)
        return;
    // Only now: the recorder creates the file and its tables on its own thread, and a
    // connection opened beside it while it does could find neither (or a locked file).
    QString why;
    m_catalogOpen = m_catalog.open(m_path, &why);
    if (!m_catalogOpen)
        Q_EMIT problem(tr("History is not recorded: %1").arg(why));
    auto reader = std::make_shared<HistoryStore>();
    QString unopened; // the recorder reports its own failures
    if (!reader->open(m_path, &unopened))
        return;
    m_reader = std::move(reader);
    Q_EMIT opened();
}

void RunRecording::followServers(ServerStore *servers, HistoryRecorder *recorder)
{
    for (const auto signal : {&ServerStore::serverAdded, &ServerStore::serverChanged})
        QObject::connect(servers, signal, recorder, [servers, recorder](int row) {
            const ServerConfig &c = servers->config(row);
            recorder->addSecrets(c);
            recorder->setPayloadsRecorded(c.name, c.recordPayloads);
        });
}

} // namespace Sonde

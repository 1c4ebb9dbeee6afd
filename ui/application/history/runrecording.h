// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/storehistorycatalog.h"

#include <QObject>
#include <QString>

#include <memory>

namespace Sonde {

class CoreHost;
class HistoryRecorder;
struct HistoryRetention;
class HistoryStore;
class ServerStore;

// This run's recording into the history, as the window has it: the recorder takes every
// batch the engine sends (on its own thread), the History tab reads the recorded sessions
// through the catalog, and once the recorder has opened the file the Transcript tab reads
// this run through a read connection of its own (reader()). Each server's configured secrets
// are masked before they reach the disk, and its "Record payloads in the history" switch
// holds, on add and on every edit (followServers). No Widgets. Thread: GUI.
class RunRecording : public QObject
{
    Q_OBJECT
public:
    explicit RunRecording(CoreHost &host, QObject *parent = nullptr);
    ~RunRecording() override;

    // Starts recording into `path` (empty: history.sqlite in the application's data folder)
    // with `source` naming the front end in the history's runs.
    void start(const QString &path, const HistoryRetention &retention,
               const QString &source = QStringLiteral("window"));
    bool isStarted() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    HistoryRecorder *recorder() const { return m_recorder.get(); }
    // Set once opened() came; null before, or when it could not be opened (problem() said
    // why).
    HistoryCatalog *catalog() { return m_catalogOpen ? &m_catalog : nullptr; }
    // Set once opened() came.
    std::shared_ptr<const HistoryStore> reader() const { return m_reader; }
    bool isOpen() const { return m_reader != nullptr; }

    // The masking and payload switch of every server in `servers`, as it is added or edited.
    static void followServers(ServerStore *servers, HistoryRecorder *recorder);

Q_SIGNALS:
    // The recorder opened the file and the reader is there (once).
    void opened();
    // "History is not recorded: …".
    void problem(const QString &text);

private:
    void tryOpenReader();

    CoreHost &m_host;
    std::unique_ptr<HistoryRecorder> m_recorder;
    StoreHistoryCatalog m_catalog;
    bool m_catalogOpen = false;
    std::shared_ptr<HistoryStore> m_reader;
    QString m_path;
};

} // namespace Sonde

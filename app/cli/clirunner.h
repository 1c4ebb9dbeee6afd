// SPDX-License-Identifier: MIT
#pragma once

#include "cliserverrequesthandler.h"
#include "config/serverconfig.h"
#include "engine/corehost.h"
#include "transcript/transcriptwriter.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

namespace Sonde {

// Everything sonde-cli was asked to do, parsed from its arguments.
struct CliOptions
{
    ServerConfig server;
    CliServerRequestHandler::Policy policy;
    QString transcriptPath;
    QString logLevel;
    bool quiet = false;
    bool showSecrets = false;
    QStringList command; // e.g. {"tools", "call", "echo", "{...}"}

    // Parses argv (without the program name). On failure returns false with a message.
    static bool parse(const QStringList &args, CliOptions *out, QString *error);
    static QString usage();
};

// Runs one CLI invocation on a CoreHost: connect, run the command (or exec steps), print
// JSON on stdout, shut down, and report the exit code (0 ok, 1 error answer, 2 usage or
// connection failure). Thread: the main thread.
class CliRunner : public QObject
{
    Q_OBJECT
public:
    explicit CliRunner(CliOptions options, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    using Done = std::function<void(const QJsonObject &answer, bool ok)>;

    void onSessionChanged(const SessionSnapshot &s);
    void runCommand();
    void runStep(const QJsonObject &step, Done done);
    void call(const QString &method, const QJsonObject &params, Done done, bool toolCall = false);
    void nextExecStep();
    void runConformanceClient();
    static QJsonObject sampleArguments(const QJsonObject &inputSchema);
    void finish(int code);
    void print(const QJsonObject &o, bool compact);

    CliOptions m_options;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<CliServerRequestHandler> m_handler;
    TranscriptWriter m_transcript;
    QHash<quint64, Done> m_waiting;
    std::function<void(const SessionSnapshot &)> m_snapshotWaiter;
    QJsonArray m_notifications;
    QList<QByteArray> m_execLines;
    int m_execIndex = 0;
    bool m_execFailed = false;
    bool m_connected = false;
    bool m_finishing = false;
    int m_exitCode = 0;
};

} // namespace Sonde

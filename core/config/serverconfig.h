// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Sonde {

// How to reach one server, as plain data. Front ends build it (from flags, a config file or
// the GUI's settings) and hand a copy to the engine; the core never reads settings itself.
struct ServerConfig
{
    enum class Route { Stdio, StreamableHttp, LegacySse };

    QString name;
    Route route = Route::Stdio;

    // stdio: launched as program + arguments, never through a shell.
    QString program;
    QStringList arguments;
    QMap<QString, QString> environment; // added to (overriding) the inherited environment
    QString workingDirectory;

    // HTTP
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;

    int requestTimeoutMs = 60'000;     // reset by progress notifications
    int maxRequestTotalMs = 600'000;   // the cap progress cannot extend past
    int initializeTimeoutMs = 30'000;
    int shutdownGraceMs = 500;         // after closing stdin, before SIGTERM
    int terminateGraceMs = 1'000;      // after SIGTERM, before SIGKILL

    // Recovery (RECOVERY.md): breaker policy, one time budget per user action for waiting on
    // a reconnect, an optional keepalive ping, and the user's per-tool replay overrides
    // (true: read-only, replay after recovery; false: write-capable, never replay).
    int breakerThreshold = 3;
    int breakerCooldownMs = 60'000;
    int recoveryBudgetMs = 15'000;
    int pingIntervalMs = 0; // 0: no keepalive
    QMap<QString, bool> toolReadOnlyOverrides;

    QString routeName() const;
    // The exact command line, quoted for display (shown before an imported entry runs).
    QString displayCommand() const;
};

// Reads the server maps that Claude Desktop / Cursor ("mcpServers") and VS Code ("servers")
// write. Errors name the file position or the server and key, and suggest the key that was
// probably meant, so a typo never turns into a silently ignored setting.
class ServerConfigFile
{
public:
    struct Result
    {
        QMap<QString, ServerConfig> servers;
        QStringList warnings;
        Error error;
    };
    static Result parse(const QByteArray &json, const QString &sourceName);
    static Result load(const QString &path);
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::ServerConfig)

// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QJsonObject>
#include <QSize>
#include <QStringList>

#include <optional>

namespace Sonde {

// `sonde app-snapshot CONNECTION --tool NAME [--args JSON] --out FILE.png [--size WxH]
// [--timeout S]`, with CONNECTION as sonde-cli takes it (--command/--arg/--env/--cwd,
// --url/--header, --config/--server, --era). Headless: parsed and checked here, run by the
// window's AppSnapshot. Thread: any.
struct AppSnapshotOptions
{
    ServerConfig server;
    QString tool;
    QJsonObject arguments;
    QString out;
    QSize size{800, 600};
    int timeoutMs = 30'000;

    static QString usage();
    // `args` without the program and the command word; `error` is one line.
    static std::optional<AppSnapshotOptions> parse(const QStringList &args, QString *error);
};

} // namespace Sonde

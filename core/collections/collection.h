// SPDX-License-Identifier: MIT
#pragma once

#include "callexpectation.h"
#include "config/serverconfig.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// One call of a collection: a tool call ("tool" + "args") or any request ("method" +
// "params"), with what its answer must show.
struct CollectionCall
{
    QString name;
    QString method;     // "tools/call" for a tool call
    QString tool;       // empty unless a tool call
    QJsonObject params; // as sent: a tool call's are {"name", "arguments"}
    CallExpectation expect;
};

// A saved collection (docs/collections.md): a server and the calls to run on it, in order.
// `server` is a config entry (read by ServerConfigFile, the same reader as mcp.json) or
// {"config": FILE, "server": NAME} (FILE relative to the collection's folder).
class Collection
{
public:
    // A collection is a hand-written file; anything bigger is not one.
    static constexpr qsizetype MaxFileBytes = 16 * 1024 * 1024;

    QString name;
    ServerConfig server;
    QList<CollectionCall> calls;

    // On bad input returns nullopt with `error` naming the file, the call and the field.
    // `folder` resolves a relative "config" path.
    static std::optional<Collection> parse(const QByteArray &json, const QString &source,
                                           const QString &folder, QString *error);
    static std::optional<Collection> load(const QString &path, QString *error);
};

} // namespace Sonde

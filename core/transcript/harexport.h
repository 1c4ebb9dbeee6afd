// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Sonde {

// HAR 1.2 of the HTTP legs of transcript records: one entry per "http-exchange" event (the
// HTTP routes record them, HttpExchangeRecord), with its request, response and timings, each
// SSE frame in `_eventSourceMessages` ({time, eventName, eventId, data}; time in seconds
// since the epoch, as browsers write it) and the JSON-RPC method, id, generation and era in
// `_mcp`. stdio legs have no HTTP to show: they are left out, and the log's comment counts
// them. Pure; any thread.
class HarExport
{
public:
    static QByteArray write(const QList<QJsonObject> &records);
    // "3 HTTP exchanges; 2 stdio legs left out", for the export dialog and the log comment.
    static QString describeLegs(const QList<QJsonObject> &records);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>

namespace Sonde {

class ExportOutput;
class ExportReader;

// HAR 1.2 of the HTTP legs of transcript records: one entry per "http-exchange" event (the
// HTTP routes record them, HttpExchangeRecord), with its request, response and timings, each
// SSE frame in `_eventSourceMessages` ({time, eventName, eventId, data}; time in seconds
// since the epoch, as browsers write it) and the JSON-RPC method, id, generation and era in
// `_mcp`. stdio legs have no HTTP to show: they are left out, and the log's comment counts
// them. Pure; any thread.
class HarExport
{
public:
    // The legs of records seen one by one: HTTP exchanges, and the legs (server,
    // generation) with wire traffic and none.
    class Legs
    {
    public:
        void add(const QJsonObject &record);
        qint64 exchanges() const { return m_exchanges; }
        qsizetype stdioLegs() const;

    private:
        qint64 m_exchanges = 0;
        QSet<QString> m_http;
        QSet<QString> m_wire;
    };

    static QByteArray write(const QList<QJsonObject> &records);
    // The same, streamed: a pass for the eras and legs, then one entry per exchange.
    static bool write(ExportReader &in, ExportOutput &out);
    // "3 HTTP exchanges; 2 stdio legs left out", for the export dialog and the log comment.
    static QString describeLegs(const QList<QJsonObject> &records);
    static QString describeLegs(qint64 exchanges, qsizetype stdioLegs);
};

} // namespace Sonde

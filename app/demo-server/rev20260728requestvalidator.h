// SPDX-License-Identifier: MIT
#pragma once

#include "demoprotocol.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace Sonde {

class JsonRpcMessage;

// What a modern request says about itself in _meta: everything the server may rely on,
// since no earlier request (no initialize) set anything up.
struct Rev20260728Request
{
    QString version;
    QJsonObject clientCapabilities;
    QString logLevel; // empty: the request wants no notifications/message
};

// Tells a modern request (2026-07-28: per-request _meta, served statelessly) from a legacy
// one, and checks its _meta: both transports of the demo server use it, so stdio and HTTP
// give the same -32602 / -32022 answers. Pure; any thread.
class Rev20260728RequestValidator
{
public:
    explicit Rev20260728RequestValidator(DemoEra era = DemoEra::Both) : m_era(era) {}

    DemoEra era() const { return m_era; }
    // Legacy era: never. Modern era: every request (a legacy client is refused, not served
    // as legacy). Both: server/discover, subscriptions/listen, or a request whose _meta
    // carries one of the per-request protocol fields.
    bool isRev20260728(const JsonRpcMessage &m) const;

    struct Verdict
    {
        std::optional<Rev20260728Request> request; // set when the _meta is valid
        int code = 0;
        QString message;
        QJsonValue data;
    };
    Verdict validate(const JsonRpcMessage &m) const;

    // Position in the syslog order (debug = 0 ... emergency = 7); -1 for an unknown name.
    static int logLevelRank(const QString &level);

private:
    DemoEra m_era;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/mcpheaders.h"
#include "protocol/rev20260728.h"
#include "session/listenstream.h"
#include "session/sessionera.h"
#include "session/taskfollower.h"

#include <QHash>
#include <QPair>

namespace Sonde {

// The sessionless 2026-07-28 revision (docs/protocol.md): every request carries the client's
// version, capabilities, info and log level in _meta; a call may answer input_required (MRTR
// input rounds, put to the user as the server requests they replace) or with a task; the
// session answers logging/setLevel, resource subscriptions and ping itself; a -32020 header
// mismatch on tools/call is answered by reading the tools again and sending once more; the
// listen stream runs beside the calls. Thread: the session's.
class Rev20260728Era final : public SessionEra
{
public:
    explicit Rev20260728Era(SessionHost &host);

    std::optional<ServerConfig::Era> kind() const override
    {
        return ServerConfig::Era::Rev20260728;
    }
    bool speaks(const QString &version) const override;
    QStringList probedVersions() const override;
    void reset() override;
    void adopt(const QString &version) override { m_version = version; }
    QJsonObject requestParams(const QString &method, const QJsonObject &params) override;
    void describe(SessionSnapshot &snapshot) const override;
    void connected() override { m_listen.open(); }
    bool cancelsWithNotification() const override;

    bool takeResponse(const JsonRpcMessage &response) override;
    bool takeRequestFailure(const QJsonValue &id, const Error &error) override;
    bool takeNotification(const JsonRpcMessage &notification) override;
    bool takeReply(const ServerReply &reply) override;

    bool answerLocally(quint64 ticket) override;
    bool continueCall(quint64 ticket, const JsonRpcMessage &response, const Error &error) override;
    bool cancel(quint64 ticket, const QString &reason) override;
    void finished(quint64 ticket) override { m_tasks.stop(ticket); }
    void clear() override;

    void listRead(const QString &method, const QJsonObject &result) override;
    QJsonArray acceptTools(const QJsonArray &tools) override;

private:
    // What a call answers when it is not a plain result (input_required, a task, an unknown
    // resultType); false when the answer is the call's outcome.
    bool continueWithResult(quint64 ticket, const JsonRpcMessage &response);
    // -32020 on a tools/call: read the tools again (their x-mcp-header annotations may have
    // changed, or were never read) and send the call once more; true when that is under way.
    bool retryAfterHeaderMismatch(quint64 ticket, const Error &error);
    void askForInput(quint64 ticket, const QString &prefix);
    void sendInputRetry(quint64 ticket);
    QJsonObject capabilities() const;

    QString m_version;                     // the one chosen; empty while the probe asks
    QString m_logLevel;                    // sent in every request's _meta once the user set one
    Rev20260728::RequestContext m_context; // its unchanging part, built on first use
    McpHeaders::ToolParams m_toolHeaders;
    QHash<QString, QPair<quint64, QString>> m_inputRequests; // question id -> ticket, key
    ListenStream m_listen;
    TaskFollower m_tasks;
};

} // namespace Sonde

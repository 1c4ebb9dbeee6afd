// SPDX-License-Identifier: MIT
#pragma once

#include "engine/corehost.h"

#include <QJsonObject>
#include <QStringList>

namespace Sonde {

// sonde-cli's answers to server -> client requests: from its flags, or a decline. A headless
// run can never ask a person, so nothing is accepted unless a flag said so.
class CliServerRequestHandler final : public ServerRequestHandler
{
public:
    struct Policy
    {
        QStringList roots;    // --root URI-or-path
        QString samplingText; // --sampling-text: the "model" reply
        QString samplingModel = QStringLiteral("sonde-cli");
        QString elicitationAction = QStringLiteral("decline"); // --elicitation
        QJsonObject elicitationContent; // --elicitation-content, over schema defaults
        QString urlElicitationAction = QStringLiteral("decline");
    };

    CliServerRequestHandler(CoreHost &host, Policy policy, bool quiet);
    void handleServerRequest(const ServerRequest &request) override;
    // The answer for a request, without sending it (exposed for tests).
    static ServerReply answerFor(const ServerRequest &request, const Policy &policy);

private:
    CoreHost &m_host;
    Policy m_policy;
    bool m_quiet;
};

} // namespace Sonde

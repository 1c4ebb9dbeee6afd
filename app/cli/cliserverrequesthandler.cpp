// SPDX-License-Identifier: MIT
#include "cliserverrequesthandler.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/mcp.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QUrl>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

CliServerRequestHandler::CliServerRequestHandler(CoreHost &host, Policy policy, bool quiet)
    : m_host(host), m_policy(std::move(policy)), m_quiet(quiet)
{
}

ServerReply CliServerRequestHandler::answerFor(const ServerRequest &request, const Policy &policy)
{
    ServerReply reply{request.server, request.generation, request.id, {}, {}};
    const QString method = request.method;
    if (method == "roots/list"_L1) {
        QJsonArray roots;
        for (const QString &root : policy.roots) {
            const QUrl url = root.contains("://"_L1)
                                 ? QUrl(root)
                                 : QUrl::fromLocalFile(QFileInfo(root).absoluteFilePath());
            roots.append(
                QJsonObject{{"uri"_L1, url.toString()},
                            {"name"_L1, url.fileName().isEmpty() ? root : url.fileName()}});
        }
        reply.result = {{"roots"_L1, roots}};
    } else if (method == "sampling/createMessage"_L1) {
        if (policy.samplingText.isEmpty()) {
            reply.error = Error::remote(
                -1,
                u"sampling declined: sonde-cli has no model (pass --sampling-text to answer)"_s);
        } else {
            reply.result = {{"role"_L1, "assistant"_L1},
                            {"content"_L1,
                             QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, policy.samplingText}}},
                            {"model"_L1, policy.samplingModel},
                            {"stopReason"_L1, "endTurn"_L1}};
        }
    } else if (method == "elicitation/create"_L1) {
        const QString mode = request.params.value("mode"_L1).toString(
            request.params.contains("url"_L1) ? u"url"_s : u"form"_s);
        const QString action =
            mode == "url"_L1 ? policy.urlElicitationAction : policy.elicitationAction;
        reply.result = {{"action"_L1, action}};
        if (mode == "form"_L1 && action == "accept"_L1)
            reply.result.insert(
                "content"_L1,
                Mcp::elicitationDefaults(request.params.value("requestedSchema"_L1).toObject(),
                                         policy.elicitationContent));
    } else {
        reply.error = Error::remote(JsonRpcCode::MethodNotFound,
                                    u"sonde-cli does not handle %1"_s.arg(method));
    }
    return reply;
}

void CliServerRequestHandler::handleServerRequest(const ServerRequest &request)
{
    const ServerReply reply = answerFor(request, m_policy);
    if (!m_quiet) {
        QString what = reply.error.isError()
                           ? u"declined ("_s + reply.error.message() + u')'
                           : reply.result.value("action"_L1).toString(u"answered"_s);
        if (request.method == "roots/list"_L1 && !reply.error.isError())
            what =
                u"answered with %1 root(s)"_s.arg(reply.result.value("roots"_L1).toArray().size());
        if (request.params.contains("url"_L1))
            what += u" url="_s + request.params.value("url"_L1).toString();
        // Sonde's own notice: "[name] ..." is how the server's stderr lines are shown.
        std::fprintf(stderr, "sonde-cli: %s asked %s: %s\n", qPrintable(request.server),
                     qPrintable(request.method), qPrintable(what));
    }
    m_host.reply(reply);
}

} // namespace Sonde

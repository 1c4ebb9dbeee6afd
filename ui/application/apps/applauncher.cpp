// SPDX-License-Identifier: MIT
#include "application/apps/applauncher.h"

#include "engine/corehost.h"
#include "protocol/mcpapps.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

AppLauncher::AppLauncher(CoreHost &host, QObject *parent) : QObject(parent), m_host(host)
{
    connect(&m_host, &CoreHost::callFinished, this, &AppLauncher::onCallFinished);
}

void AppLauncher::open(const Request &request)
{
    m_request = request;
    m_ticket = 0;
    QString why;
    const std::optional<QString> uri = McpApps::resourceUri(request.tool, &why);
    if (!uri) {
        Q_EMIT refused(why.isEmpty() ? u"the tool %1 has no App (no _meta.ui.resourceUri)"_s.arg(
                                           request.tool.value("name"_L1).toString())
                                     : why);
        return;
    }
    m_uri = *uri;
    m_ticket = m_host.call(request.server, u"resources/read"_s, {{"uri"_L1, m_uri}});
}

void AppLauncher::onCallFinished(const CallOutcome &o)
{
    if (o.ticket != m_ticket || m_ticket == 0)
        return;
    m_ticket = 0;
    if (!o.ok()) {
        Q_EMIT refused(u"reading the App's resource %1 failed: %2"_s.arg(m_uri, o.error.message()));
        return;
    }
    QJsonObject listingUi;
    for (const QJsonValue &r : std::as_const(m_request.resources)) {
        if (r.toObject().value("uri"_L1).toString() == m_uri)
            listingUi = r.toObject().value("_meta"_L1).toObject().value("ui"_L1).toObject();
    }
    QString why;
    std::optional<AppResource> resource =
        AppResource::fromRead(m_uri, o.result.toObject(), listingUi, &why);
    if (!resource) {
        Q_EMIT refused(why);
        return;
    }
    AppSession::Setup setup;
    setup.server = m_request.server;
    setup.tool = m_request.tool;
    setup.arguments = m_request.arguments;
    setup.resource = std::move(*resource);
    setup.hostInfo = m_request.hostInfo;
    setup.hostContext = m_request.hostContext;
    setup.serverTools = m_request.serverTools;
    Q_EMIT ready(new AppSession(m_host, std::move(setup)));
}

} // namespace Sonde

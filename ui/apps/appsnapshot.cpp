// SPDX-License-Identifier: MIT
#include "apps/appsnapshot.h"

#include "application/apps/apphostcontext.h"
#include "application/apps/applauncher.h"
#include "apps/apppane.h"
#include "engine/corehost.h"
#include "protocol/mcpapps.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// After its result is painted, an App often answers with a resize or a call of its own: the
// picture is taken once it has said nothing for this long.
constexpr int QuietMs = 400;
} // namespace

AppSnapshot::AppSnapshot(AppSnapshotOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    m_timeout.setSingleShot(true);
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(QuietMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        AppSession *s = m_pane ? m_pane->session() : nullptr;
        const QString why = !m_host ? u"timeout"_s
                            : m_callTicket == 0 && m_tool.isEmpty()
                                ? u"timeout: the server did not list its tools in time"_s
                            : !s ? u"timeout: no answer from the tool or its resource"_s
                            : !s->initialized()
                                ? u"timeout: the App never sent ui/initialize (or never "
                                  u"ui/notifications/initialized)"_s
                            : !s->toolResultDelivered() ? u"timeout: the App initialized but "
                                                          u"the tool's result never reached it"_s
                                                        : QString();
        if (why.isEmpty())
            finish(0, {}); // delivered and painting kept it busy: take what is there
        else
            finish(1, why);
    });
    connect(&m_quiet, &QTimer::timeout, this, [this] { finish(0, {}); });
}

AppSnapshot::~AppSnapshot() = default;

void AppSnapshot::start()
{
    m_host = std::make_unique<CoreHost>();
    // Only what a snapshot can honour: it renders Apps and asks nobody anything.
    m_host->setClientCapabilities(McpApps::withExtension({}));
    connect(m_host.get(), &CoreHost::sessionChanged, this, &AppSnapshot::onSession);
    connect(m_host.get(), &CoreHost::callFinished, this, &AppSnapshot::onCall);
    m_launcher = new AppLauncher(*m_host, this);
    m_pane = std::make_unique<AppPane>();
    m_pane->setAppOnly(true);
    m_pane->setUnattended(true);
    m_pane->resize(m_options.size);
    // Shown (on the offscreen platform unless another was asked for): a page Chromium thinks
    // hidden neither paints nor runs its animation frames.
    m_pane->show();
    connect(m_launcher, &AppLauncher::refused, this, [this](const QString &reason) {
        finish(reason.contains(u"no App"_s) ? 3 : 4, reason);
    });
    connect(m_launcher, &AppLauncher::ready, this, [this](AppSession *session) {
        m_resource = session->setup().resource.uri;
        connect(session, &AppSession::logged, this, [this] {
            if (m_painted)
                settleSoon();
        });
        m_pane->showApp(session);
    });
    connect(m_pane.get(), &AppPane::appPainted, this, [this] {
        m_painted = true;
        settleSoon();
    });
    m_timeout.start(m_options.timeoutMs);
    m_host->addServer(m_options.server);
}

void AppSnapshot::onSession(const SessionSnapshot &s)
{
    if (s.state != SessionSnapshot::State::Ready || m_started)
        return;
    m_started = true;
    m_listTicket = m_host->call(m_options.server.name, u"tools/list"_s);
}

void AppSnapshot::onCall(const CallOutcome &o)
{
    if (o.ticket == m_listTicket) {
        if (!o.ok()) {
            finish(2, u"tools/list failed: "_s + o.error.message());
            return;
        }
        m_tools = o.result.toObject().value("tools"_L1).toArray();
        for (const QJsonValue &t : std::as_const(m_tools))
            if (t.toObject().value("name"_L1).toString() == m_options.tool)
                m_tool = t.toObject();
        if (m_tool.isEmpty()) {
            finish(2, u"the server has no tool named \"%1\""_s.arg(m_options.tool));
            return;
        }
        QString why;
        if (!McpApps::resourceUri(m_tool, &why)) {
            finish(3, why.isEmpty() ? u"the tool %1 has no App (no _meta.ui.resourceUri)"_s.arg(
                                          m_options.tool)
                                    : why);
            return;
        }
        m_callTicket =
            m_host->call(m_options.server.name, u"tools/call"_s,
                         {{"name"_L1, m_options.tool}, {"arguments"_L1, m_options.arguments}});
        return;
    }
    if (o.ticket != m_callTicket || m_callTicket == 0)
        return;
    if (!o.ok() && o.error.kind() != Error::Kind::Application) {
        finish(2, u"tools/call %1 failed: %2"_s.arg(m_options.tool, o.error.message()));
        return;
    }
    AppLauncher::Request r;
    r.server = m_options.server.name;
    r.tool = m_tool;
    r.arguments = m_options.arguments;
    r.serverTools = m_tools;
    r.hostInfo = AppHostContext::hostInfo();
    r.hostContext = AppHostContext::build(m_pane->palette(), m_options.size);
    const CallOutcome outcome = o;
    connect(m_launcher, &AppLauncher::ready, this,
            [outcome](AppSession *session) { session->deliverOutcome(outcome); });
    m_launcher->open(r);
}

void AppSnapshot::settleSoon()
{
    m_quiet.start();
}

void AppSnapshot::finish(int code, const QString &error)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout.stop();
    m_quiet.stop();
    AppSession *s = m_pane ? m_pane->session() : nullptr;
    QJsonObject line{
        {"tool"_L1, m_options.tool},
        {"resource"_L1, m_resource.isEmpty() ? QJsonValue() : QJsonValue(m_resource)},
        {"initialized"_L1, s && s->initialized()},
        {"tool_result_delivered"_L1, s && s->toolResultDelivered()},
        {"csp_blocked"_L1, QJsonArray::fromStringList(s ? s->cspBlocked() : QStringList())},
        {"console_errors"_L1, QJsonArray::fromStringList(s ? s->consoleErrors() : QStringList())}};
    QString failure = error;
    if (s) {
        const QImage image = m_pane->grabApp();
        line.insert("size"_L1, QJsonArray{image.width(), image.height()});
        if (image.isNull() || !image.save(m_options.out, "PNG")) {
            if (failure.isEmpty())
                failure = u"could not write %1"_s.arg(m_options.out);
            code = code ? code : 1;
        } else {
            line.insert("out"_L1, m_options.out);
        }
        line.insert("sandbox"_L1, m_pane->sandboxNote().isEmpty());
        if (!m_pane->sandboxNote().isEmpty())
            line.insert("sandbox_note"_L1, m_pane->sandboxNote());
        QJsonArray log;
        for (const AppSession::LogLine &l : s->log())
            log.append(u"[%1] %2"_s.arg(l.level, l.text));
        line.insert("log"_L1, log);
    } else {
        line.insert("size"_L1, QJsonArray{0, 0});
    }
    if (!failure.isEmpty())
        line.insert("error"_L1, failure);
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    if (!failure.isEmpty())
        std::fprintf(stderr, "sonde app-snapshot: %s\n", qPrintable(failure));
    // The session ends before the program does: the server process is not left behind.
    if (m_pane && s)
        m_pane->closeApp(u"the snapshot is taken"_s);
    connect(m_host.get(), &CoreHost::shutdownFinished, this,
            [this, code] { Q_EMIT finished(code); });
    m_host->shutdown();
}

} // namespace Sonde

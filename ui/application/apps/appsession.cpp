// SPDX-License-Identifier: MIT
#include "application/apps/appsession.h"

#include "engine/corehost.h"
#include "protocol/mcpapps.h"

#include <QJsonArray>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// The log keeps what the App said; a flooding App cannot grow it without bound.
constexpr int MaxLogLines = 2000;

AppBridge::Options bridgeOptions(const AppSession::Setup &s)
{
    AppBridge::Options o;
    o.hostInfo = s.hostInfo;
    o.hostContext = s.hostContext;
    o.tool = s.tool;
    const QJsonArray tools = s.serverTools;
    o.appMayCall = [tools](const QString &name) {
        for (const QJsonValue &t : tools) {
            const QJsonObject tool = t.toObject();
            if (tool.value("name"_L1).toString() == name)
                return McpApps::visibility(tool).app;
        }
        return false; // not a tool of the App's server
    };
    return o;
}

QJsonObject errorObject(const Error &e)
{
    QJsonObject error{{"code"_L1, e.jsonRpcCode().value_or(-32603)}, {"message"_L1, e.message()}};
    if (!e.data().isUndefined() && !e.data().isNull())
        error.insert("data"_L1, e.data());
    return error;
}

} // namespace

AppSession::AppSession(CoreHost &host, Setup setup, QObject *parent)
    : QObject(parent), m_host(host), m_setup(std::move(setup)), m_bridge(bridgeOptions(m_setup))
{
    connect(&m_host, &CoreHost::callFinished, this, &AppSession::onCallFinished);
}

std::optional<QString> AppSession::policyRefusal(const QString &text)
{
    // Chromium says a refusal twice, in two words: "Refused to connect to
    // 'http://127.0.0.1:4242/x' because it violates the following Content Security Policy
    // directive: "connect-src 'none'"." and "... because it violates the document's Content
    // Security Policy." (also "Refused to load the image '…'", "Refused to frame '…'"). Both
    // give the URL; the directive is named where it is said.
    static const QRegularExpression refused(
        uR"(^Refused to [^']*'([^']*)' because it violates (?:the following Content Security Policy directive: "([a-z-]+)|the document's Content Security Policy))"_s);
    const QRegularExpressionMatch m = refused.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(2).isEmpty() ? m.captured(1) : m.captured(2) + u' ' + m.captured(1);
}

void AppSession::note(const QString &level, const QString &text)
{
    if (m_log.size() >= MaxLogLines)
        return;
    const LogLine line{level, text};
    m_log.append(line);
    if (m_log.size() == MaxLogLines)
        m_log.append({u"warning"_s,
                      u"the App's log holds %1 lines; later ones are dropped"_s.arg(MaxLogLines)});
    Q_EMIT logged(line);
}

void AppSession::fromApp(const QJsonObject &message)
{
    run(m_bridge.fromApp(message));
    if (m_bridge.initialized() && !m_wasInitialized) {
        m_wasInitialized = true;
        Q_EMIT initializedChanged();
    }
}

void AppSession::console(const QString &level, const QString &text)
{
    if (const std::optional<QString> refusal = policyRefusal(text)) {
        // One entry per URL: the line without the directive repeats the one with it.
        const QString url = refusal->section(u' ', -1);
        for (const QString &b : std::as_const(m_cspBlocked))
            if (b.section(u' ', -1) == url)
                return;
        m_cspBlocked << *refusal;
        note(u"csp"_s, u"blocked by the App's policy: "_s + *refusal);
        return;
    }
    if (level == "error"_L1 && !m_consoleErrors.contains(text) && m_consoleErrors.size() < 100)
        m_consoleErrors << text;
    note(level, u"console: "_s + text);
}

void AppSession::deliverOutcome(const CallOutcome &o)
{
    run(m_bridge.toolInput(m_setup.arguments));
    // A tool that failed with isError still answered: its result goes to the App as it is.
    if (o.ok() || o.error.kind() == Error::Kind::Application) {
        run(m_bridge.toolResult(o.result.toObject()));
        return;
    }
    run(m_bridge.toolCancelled(o.error.message()));
}

void AppSession::deliverCancelled(const QString &reason)
{
    run(m_bridge.toolCancelled(reason));
}

void AppSession::hostContextChanged(const QJsonObject &changed)
{
    run(m_bridge.hostContextChanged(changed));
}

void AppSession::teardown(const QString &reason)
{
    run(m_bridge.teardown(reason));
}

void AppSession::linkAnswered(const QJsonValue &appId, bool opened)
{
    run(m_bridge.linkAnswered(appId, opened));
}

void AppSession::run(const AppBridge::Actions &actions)
{
    using Kind = AppBridge::Action::Kind;
    for (const AppBridge::Action &a : actions) {
        switch (a.kind) {
        case Kind::Post:
            Q_EMIT postToApp(a.message);
            if (!m_resultDelivered &&
                a.message.value("method"_L1) == "ui/notifications/tool-result"_L1) {
                m_resultDelivered = true;
                note(u"info"_s, u"the tool's result reached the App"_s);
                Q_EMIT toolResultPosted();
            }
            break;
        case Kind::CallServer: {
            CallRequest request;
            request.server = m_setup.server;
            request.method = a.method;
            request.params = a.params;
            request.followPages = false; // the App pages itself
            const quint64 ticket = m_host.call(request);
            m_pending.insert(ticket, a.appId);
            m_callTickets << ticket;
            const QString name =
                a.params.value(a.method == "tools/call"_L1 ? "name"_L1 : "uri"_L1).toString();
            note(u"call"_s, u"the App asked the server: %1 %2"_s.arg(a.method, name).trimmed());
            Q_EMIT serverCallSent(ticket, a.method, name);
            break;
        }
        case Kind::OpenLink:
            Q_EMIT openLinkRequested(a.text, a.appId);
            break;
        case Kind::Resize:
            Q_EMIT resizeRequested(a.width, a.height);
            break;
        case Kind::DisplayMode:
            Q_EMIT displayModeRequested(a.text);
            break;
        case Kind::Log:
            note(a.level, a.text);
            break;
        case Kind::TornDown:
            Q_EMIT tornDown();
            break;
        }
    }
}

void AppSession::onCallFinished(const CallOutcome &o)
{
    const auto it = m_pending.constFind(o.ticket);
    if (it == m_pending.cend())
        return;
    const QJsonValue appId = it.value();
    m_pending.erase(it);
    Q_EMIT serverCallFinished(o);
    if (o.ok() || o.error.kind() == Error::Kind::Application) {
        note(u"call"_s, u"the server answered the App's %1"_s.arg(o.method));
        run(m_bridge.serverAnswered(appId, o.result.toObject(), {}));
    } else {
        note(u"warning"_s, u"the App's %1 failed: %2"_s.arg(o.method, o.error.message()));
        run(m_bridge.serverAnswered(appId, {}, errorObject(o.error)));
    }
}

} // namespace Sonde

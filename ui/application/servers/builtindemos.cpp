// SPDX-License-Identifier: MIT
#include "application/servers/builtindemos.h"

#include "application/servers/demoserverprocess.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"

using namespace Qt::StringLiterals;

namespace Sonde {

BuiltInDemos::BuiltInDemos(ServerRegistry *registry, QObject *parent)
    : QObject(parent), m_registry(registry)
{
    connect(registry, &ServerRegistry::serverRemoved, this, &BuiltInDemos::stopIfUnused);
}

QString BuiltInDemos::addFirstRun()
{
    ServerConfig demo;
    demo.name = u"demo"_s;
    demo.program = m_program;
    // Both revisions on the first run: "demo" speaks 2026-07-28 (asked for: under auto a
    // dual-era server over stdio answers the handshake, docs/protocol.md), and "demo-http"
    // keeps a 2025-11-25 session, whose faults (expiry) the first-run hint shows.
    demo.era = ServerConfig::Era::Rev20260728;
    m_registry->add(demo, {});
    addHttpDemo(u"demo-http"_s, {}, ServerConfig::Era::Initialize);
    // The HTTP one is shown first: its session faults are what the web Inspector lacks.
    return u"demo-http"_s;
}

DemoServerProcess *BuiltInDemos::process()
{
    if (m_process)
        return m_process;
    m_process = new DemoServerProcess(this);
    connect(m_process, &DemoServerProcess::ready, this, [this](const QUrl &url) {
        ServerStore *servers = m_registry->servers();
        for (const QString &server : servers->builtInHttpDemos()) {
            const int row = servers->indexOf(server);
            if (row < 0)
                continue;
            ServerConfig c = servers->config(row);
            c.url = url;
            m_registry->add(c, m_registry->views()->roots(server));
        }
    });
    connect(m_process, &DemoServerProcess::failed, this, &BuiltInDemos::problem);
    connect(m_process, &DemoServerProcess::died, this, &BuiltInDemos::problem);
    connect(m_process, &DemoServerProcess::stopped, this, &BuiltInDemos::stopped);
    return m_process;
}

void BuiltInDemos::addHttpDemo(const QString &name, const QStringList &roots, ServerConfig::Era era)
{
    DemoServerProcess *child = process();
    ServerConfig c;
    c.name = name;
    c.era = era;
    c.route = ServerConfig::Route::StreamableHttp;
    // A placeholder until the child says where it listens; nothing connects to it.
    c.url = child->isReady() ? child->url() : QUrl(u"http://127.0.0.1/mcp"_s);
    m_registry->add(c, roots, child->isReady());
    m_registry->servers()->setBuiltInHttpDemo(name, true);
    Q_EMIT marked(name); // a workspace saved on serverAdded lacked the mark
    if (!child->isRunning())
        child->start(m_program);
}

bool BuiltInDemos::staysTheDemo(int row, const ServerConfig &config) const
{
    return m_registry->servers()->isBuiltInHttpDemo(row) && m_process &&
           config.url == m_process->url() && config.route == ServerConfig::Route::StreamableHttp;
}

void BuiltInDemos::stopIfUnused()
{
    if (m_process && m_process->isRunning() && m_registry->servers()->builtInHttpDemos().isEmpty())
        m_process->stop();
}

bool BuiltInDemos::isStopping() const
{
    return m_process && m_process->isStopping();
}

bool BuiltInDemos::stop()
{
    if (!m_process || !m_process->isRunning())
        return false;
    m_process->stop();
    return true;
}

} // namespace Sonde

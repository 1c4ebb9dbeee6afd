// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace Sonde {

class DemoServerProcess;
class ServerRegistry;

// The built-in demo servers: what a first start opens, and the HTTP demo Sonde runs as its
// own child (DemoServerProcess). A built-in HTTP demo is added with a placeholder URL that
// nothing connects to; once the child says where it listens, every built-in HTTP demo is
// added again with that URL and connects. The child stops once no server uses it (a removed
// or edited server is noticed through the registry). No Widgets. Thread: GUI.
class BuiltInDemos : public QObject
{
    Q_OBJECT
public:
    explicit BuiltInDemos(ServerRegistry *registry, QObject *parent = nullptr);

    // The sonde-demo-server program (beside sonde).
    void setProgram(const QString &path) { m_program = path; }
    QString program() const { return m_program; }

    // The first start: the demo over stdio ("demo", speaking 2026-07-28) and over HTTP
    // ("demo-http", keeping a 2025-11-25 session, whose faults the first-run hint shows).
    // Returns the server to show first.
    QString addFirstRun();
    // `name` as the built-in HTTP demo (the child is started if it is not running).
    void addHttpDemo(const QString &name, const QStringList &roots, ServerConfig::Era era);
    // Whether `config`, replacing the server in `row`, still points where the demo listens
    // (renamed or not): it stays the demo Sonde starts.
    bool staysTheDemo(int row, const ServerConfig &config) const;
    // Stops the child when no built-in demo is left.
    void stopIfUnused();
    // For quitting, once the sessions are closed: stops the child and says stopped(), or
    // returns false when there is none running.
    bool stop();
    // The child was told to stop and has not exited yet.
    bool isStopping() const;

Q_SIGNALS:
    // `name` is marked as the built-in HTTP demo (after its serverAdded).
    void marked(const QString &name);
    // The child could not start, or died while it was wanted: what the user should see.
    void problem(const QString &why);
    void stopped();

private:
    DemoServerProcess *process();

    ServerRegistry *m_registry = nullptr;
    DemoServerProcess *m_process = nullptr; // made for the first HTTP demo
    QString m_program;
};

} // namespace Sonde

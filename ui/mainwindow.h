// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"

#include <QMainWindow>

class QLabel;
class QListWidget;

namespace Sonde {

class CoreHost;
class JsonView;

// The first window: the session of each server, its tools, and a tool's JSON. It talks to
// the core only through CoreHost (queued calls in, value signals out). The full inspector
// (health, timeline, transcript) comes with the GUI issue.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(CoreHost &host, QWidget *parent = nullptr);

private:
    void onSessionChanged(const SessionSnapshot &s);

    CoreHost &m_host;
    QLabel *m_session = nullptr;
    QListWidget *m_tools = nullptr;
    JsonView *m_detail = nullptr;
};

} // namespace Sonde

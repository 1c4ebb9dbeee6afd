// SPDX-License-Identifier: MIT
#pragma once
// The real window as the program builds it, on one demo server over stdio; the engine is
// shut down properly when it goes.

#include "engine/corehost.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"

#include <QAbstractItemModel>
#include <QListView>
#include <QSignalSpy>

struct DemoWindow
{
    Sonde::CoreHost host;
    Sonde::MainWindow window{host};

    DemoWindow()
    {
        Sonde::ServerConfig c;
        c.name = QStringLiteral("demo");
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        window.addServer(c);
        window.show();
        window.selectServer(c.name);
    }
    ~DemoWindow()
    {
        QSignalSpy down(&host, &Sonde::CoreHost::shutdownFinished);
        host.shutdown();
        down.wait(5000);
    }
    // The Tools tab's rows: the demo server lists 19 or more once it is up.
    int toolRows() const
    {
        return window.toolsPanel()
            ->findChild<QListView *>(QStringLiteral("toolList"))
            ->model()
            ->rowCount();
    }
};

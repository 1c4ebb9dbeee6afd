// SPDX-License-Identifier: MIT
#pragma once
// The Tools tab on its own, shown at a size a user has: each server given the same tools,
// the first one selected.

#include "application/servers/serverviewstore.h"
#include "tools/toolspanel.h"

#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QStringList>

struct ShownToolsPanel
{
    Sonde::ServerViewStore store;
    Sonde::ToolsPanel panel{&store};

    explicit ShownToolsPanel(const QJsonArray &tools,
                             const QStringList &servers = {QStringLiteral("a")})
    {
        for (const QString &s : servers) {
            store.addServer(s, {});
            store.setTools(s, tools);
        }
        panel.resize(1000, 700);
        panel.show();
        panel.showServer(servers.first());
    }
    QListView *list() const { return panel.findChild<QListView *>(QStringLiteral("toolList")); }
    QLineEdit *search() const { return panel.findChild<QLineEdit *>(QStringLiteral("toolSearch")); }
    QLabel *count() const { return panel.findChild<QLabel *>(QStringLiteral("toolCount")); }
    template <typename W> W *field(const QString &name) const
    {
        return panel.findChild<W *>(QStringLiteral("field:") + name);
    }
};

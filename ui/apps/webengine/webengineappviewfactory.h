// SPDX-License-Identifier: MIT
#pragma once

#include "apps/appview.h"

#include <QObject>

namespace Sonde {

// The plugin's root object: the window asks it for App views. Created once, the first time
// an App is shown; it decides then whether Chromium's sandbox can run.
class WebEngineAppViewFactory : public QObject, public AppViewFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID SONDE_APP_VIEW_FACTORY_IID)
    Q_INTERFACES(Sonde::AppViewFactory)
public:
    WebEngineAppViewFactory();
    std::unique_ptr<AppView> create(QWidget *parent, AppView::Callbacks callbacks) override;
    bool chromiumSandbox() const override { return m_sandbox; }
    QString sandboxNote() const override { return m_note; }

private:
    bool m_sandbox = true;
    QString m_note;
};

} // namespace Sonde

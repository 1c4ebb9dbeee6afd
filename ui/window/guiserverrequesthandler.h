// SPDX-License-Identifier: MIT
#pragma once

#include "engine/corehost.h"

#include <QObject>
#include <QStringList>

class QDialog;
class QWidget;

namespace Sonde {

class ServerViewStore;

// Answers server requests by asking the user, without blocking: sampling (review the
// messages, write the reply or reject), elicitation (a form from requestedSchema with its
// defaults; URL mode shows the whole URL with its domain emphasised and opens it in the
// system browser only when the user says so), roots (from the server's settings).
// Thread: GUI; the dialogs are non-modal children of `parent`.
class GuiServerRequestHandler : public QObject, public ServerRequestHandler
{
    Q_OBJECT
public:
    // `views` gives each server's roots (from its settings).
    GuiServerRequestHandler(CoreHost &host, const ServerViewStore *views, QWidget *parent);
    void handleServerRequest(const ServerRequest &request) override;

Q_SIGNALS:
    void requestShown(const QString &method, QWidget *dialog);

private:
    void sampling(const ServerRequest &r);
    void elicitation(const ServerRequest &r);
    // Sizes a dialog from its content (at least 420 px wide, at most nine tenths of the
    // screen), so no field opens cut off; a form taller than that scrolls.
    static void fitToContent(QDialog *dialog);

    CoreHost &m_host;
    QWidget *m_parent;
    const ServerViewStore *m_views;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace Sonde {

class CoreHost;
class TranscriptModel;
class ReplayDialog;
class ReplayRequest;
class ServerViewStore;

// Sends a recorded request again (docs/history.md, "Replay"): to the live server of the same
// name, through CoreHost::call as a new request (new id, no old _meta), and shows a
// ReplayDialog with both answers. Asks first when the request may change the server's state
// (ReplayPolicy, as recovery decides: the live tools list's readOnlyHint or the user's
// override), saying what the recorded call did when it ran; Cancel sends nothing. A server
// that is not connected is said, and nothing is sent. Every box and dialog is opened with
// open() or show(), never exec(). Thread: GUI; owned by the window.
class ReplayLauncher : public QObject
{
    Q_OBJECT
public:
    ReplayLauncher(CoreHost &host, const ServerViewStore *views, QWidget *window);

    // The request in row `row` of a history model, with its answer and verdicts from the rows
    // after it.
    void replayRow(const TranscriptModel &events, int row);
    void replay(const ReplayRequest &request);
    // The dialog of the last replay sent (null before, or once it was closed).
    ReplayDialog *dialog() const;

Q_SIGNALS:
    // The request went out under this ticket.
    void sent(quint64 ticket);

private:
    void send(const ReplayRequest &request);
    void tell(const QString &name, const QString &text);

    CoreHost &m_host;
    const ServerViewStore *m_views;
    QWidget *m_window;
    QPointer<ReplayDialog> m_dialog;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transcript/replaylauncher.h"

#include "application/servers/serverviewstore.h"
#include "application/transcript/transcriptmodel.h"
#include "engine/corehost.h"
#include "transcript/replaydialog.h"

#include <QMessageBox>

using namespace Qt::StringLiterals;

namespace Sonde {

ReplayLauncher::ReplayLauncher(CoreHost &host, const ServerViewStore *views, QWidget *window)
    : QObject(window), m_host(host), m_views(views), m_window(window)
{
}

ReplayDialog *ReplayLauncher::dialog() const
{
    return m_dialog;
}

void ReplayLauncher::replayRow(const TranscriptModel &events, int row)
{
    QString error;
    const TranscriptEvent *event = events.event(row);
    std::optional<ReplayRequest> request =
        event ? ReplayRequest::fromEvent(*event, &error) : std::nullopt;
    if (!request) {
        tell(u"replayRefused"_s, tr("This record cannot be replayed: %1.")
                                     .arg(event ? error : tr("there is no such row")));
        return;
    }
    request->collect([&events](qint64 r) { return events.event(int(r)); }, qint64(row) + 1,
                     events.rowCount());
    replay(*request);
}

void ReplayLauncher::replay(const ReplayRequest &request)
{
    if (m_host.lastSnapshot(request.server).state != SessionSnapshot::State::Ready) {
        tell(u"replayNotConnected"_s,
             tr("%1 is not connected: connect it first. Nothing was sent.").arg(request.server));
        return;
    }
    const ReplayVerdict verdict =
        request.verdict(m_views->tools(request.server), m_views->toolOverrides(request.server));
    if (verdict.replay) {
        send(request);
        return;
    }
    const QString what =
        request.tool.isEmpty()
            ? tr("%1 may change the state of %2 (%3).")
                  .arg(request.method, request.server, verdict.reason)
            : tr("The tool %1 is not known to be read-only (%2): calling it again may change "
                 "the state of %3 a second time.")
                  .arg(request.tool, verdict.reason, request.server);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Replay a write?"),
                                what + u"\n\n"_s + request.recordedOutcomeText() + u"\n\n"_s +
                                    tr("Send it again?"),
                                QMessageBox::Yes | QMessageBox::Cancel, m_window);
    box->setObjectName(u"replayWriteConfirm"_s);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, request](int answer) {
        if (answer == QMessageBox::Yes)
            send(request);
    });
    box->open();
}

void ReplayLauncher::send(const ReplayRequest &request)
{
    CallRequest call;
    call.server = request.server;
    call.method = request.method;
    call.params = request.params;
    // The same single request as recorded: a list's answer is its first page, not all of them.
    call.followPages = false;
    auto *dialog = new ReplayDialog(request, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    const quint64 ticket = m_host.call(call);
    connect(&m_host, &CoreHost::callFinished, dialog, [dialog, ticket](const CallOutcome &o) {
        if (o.ticket == ticket)
            dialog->showOutcome(o);
    });
    dialog->show();
    Q_EMIT sent(ticket);
}

void ReplayLauncher::tell(const QString &name, const QString &text)
{
    auto *box =
        new QMessageBox(QMessageBox::Information, tr("Replay"), text, QMessageBox::Ok, m_window);
    box->setObjectName(name);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Sonde

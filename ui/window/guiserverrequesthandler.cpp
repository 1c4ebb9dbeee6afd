// SPDX-License-Identifier: MIT
#include "window/guiserverrequesthandler.h"

#include "application/servers/serverviewstore.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/mcp.h"
#include "tools/schemaformwidget.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

GuiServerRequestHandler::GuiServerRequestHandler(CoreHost &host, const ServerViewStore *views,
                                                 QWidget *parent)
    : QObject(parent), m_host(host), m_parent(parent), m_views(views)
{
}

void GuiServerRequestHandler::handleServerRequest(const ServerRequest &r)
{
    if (r.method == "roots/list"_L1) {
        QJsonArray roots;
        for (const QString &root : m_views->roots(r.server)) {
            const QUrl url = root.contains("://"_L1)
                                 ? QUrl(root)
                                 : QUrl::fromLocalFile(QFileInfo(root).absoluteFilePath());
            roots.append(QJsonObject{{"uri"_L1, url.toString()}, {"name"_L1, url.fileName()}});
        }
        m_host.reply({r.server, r.generation, r.id, {{"roots"_L1, roots}}, {}});
    } else if (r.method == "sampling/createMessage"_L1) {
        sampling(r);
    } else if (r.method == "elicitation/create"_L1) {
        elicitation(r);
    } else {
        m_host.reply({r.server,
                      r.generation,
                      r.id,
                      {},
                      Error::remote(JsonRpcCode::MethodNotFound,
                                    u"Sonde does not handle %1"_s.arg(r.method))});
    }
}

void GuiServerRequestHandler::sampling(const ServerRequest &r)
{
    auto *dialog = new QDialog(m_parent);
    dialog->setObjectName(u"samplingDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("%1 asks your model (sampling)").arg(r.server));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(
        tr("The server sent these messages. Edit them if you like, then write the model's reply."),
        dialog));
    auto *messages = new QPlainTextEdit(dialog);
    messages->setObjectName(u"samplingMessages"_s);
    messages->setAccessibleName(tr("Messages from the server"));
    TextDisplay::show(messages, QString::fromUtf8(QJsonDocument(r.params).toJson()));
    auto *reply = new QPlainTextEdit(dialog);
    reply->setObjectName(u"samplingReply"_s);
    reply->setAccessibleName(tr("Reply"));
    reply->setPlaceholderText(tr("The reply to send back as the assistant's message"));
    auto *model = new QLineEdit(u"sonde-user"_s, dialog);
    model->setObjectName(u"samplingModel"_s);
    model->setAccessibleName(tr("Model name"));
    // A label in a row, not a tooltip alone: the tooltip covered Send reply.
    auto *modelLabel = new QLabel(tr("&Model named in the reply:"), dialog);
    modelLabel->setObjectName(u"samplingModelLabel"_s);
    modelLabel->setBuddy(model);
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(modelLabel);
    modelRow->addWidget(model, 1);
    layout->addWidget(messages, 2);
    layout->addWidget(reply, 1);
    layout->addLayout(modelRow);
    auto *buttons = new QDialogButtonBox(dialog);
    QPushButton *send = buttons->addButton(tr("Send reply"), QDialogButtonBox::AcceptRole);
    send->setObjectName(u"samplingSend"_s);
    send->setToolTip(tr("Send the reply as the assistant's message"));
    QPushButton *reject = buttons->addButton(tr("Reject"), QDialogButtonBox::RejectRole);
    reject->setObjectName(u"samplingReject"_s);
    reject->setToolTip(tr("Refuse the request: the server gets an error"));
    layout->addWidget(buttons);
    bool *answered = new bool(false);
    connect(dialog, &QObject::destroyed, this, [answered] { delete answered; });
    connect(send, &QPushButton::clicked, dialog, [this, r, reply, model, dialog, answered] {
        *answered = true;
        m_host.reply({r.server,
                      r.generation,
                      r.id,
                      {{"role"_L1, "assistant"_L1},
                       {"content"_L1,
                        QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, reply->toPlainText()}}},
                       {"model"_L1, model->text()},
                       {"stopReason"_L1, "endTurn"_L1}},
                      {}});
        dialog->close();
    });
    connect(dialog, &QDialog::finished, this, [this, r, answered] {
        if (!*answered)
            m_host.reply({r.server,
                          r.generation,
                          r.id,
                          {},
                          Error::remote(-1, u"the user rejected the sampling request"_s)});
        *answered = true;
    });
    connect(reject, &QPushButton::clicked, dialog, &QDialog::reject);
    // The messages and the reply want room to read and write, whatever their length.
    messages->setMinimumSize(560, 200);
    reply->setMinimumHeight(100);
    dialog->show();
    fitToContent(dialog);
    Q_EMIT requestShown(r.method, dialog);
}

void GuiServerRequestHandler::elicitation(const ServerRequest &r)
{
    const QString mode =
        r.params.value("mode"_L1).toString(r.params.contains("url"_L1) ? u"url"_s : u"form"_s);
    auto *dialog = new QDialog(m_parent);
    dialog->setObjectName(u"elicitationDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("%1 asks you").arg(r.server));
    auto *layout = new QVBoxLayout(dialog);
    auto *message = new QLabel(r.params.value("message"_L1).toString(), dialog);
    message->setWordWrap(true);
    layout->addWidget(message);
    SchemaFormWidget *form = nullptr;
    if (mode == "url"_L1) {
        const QUrl url(r.params.value("url"_L1).toString());
        const QString full = url.toString().toHtmlEscaped();
        const QString host = url.host().toHtmlEscaped();
        auto *shown = new QLabel(dialog);
        shown->setObjectName(u"elicitationUrl"_s);
        shown->setTextFormat(Qt::RichText);
        shown->setTextInteractionFlags(Qt::TextSelectableByMouse);
        shown->setWordWrap(true);
        // The domain is what a user must check: make it impossible to miss.
        QString html = full;
        if (!host.isEmpty())
            html.replace(html.indexOf(host), host.size(),
                         u"<b style='font-size:large'>%1</b>"_s.arg(host));
        shown->setText(tr("It wants you to open:<br>%1").arg(html));
        layout->addWidget(shown);
        auto *open = new QPushButton(tr("Open in the browser"), dialog);
        open->setObjectName(u"elicitationOpen"_s);
        open->setToolTip(tr("Open the address in the system browser"));
        open->setEnabled(url.scheme() == "https"_L1 || url.scheme() == "http"_L1);
        connect(open, &QPushButton::clicked, dialog, [url] { QDesktopServices::openUrl(url); });
        layout->addWidget(open);
    } else {
        form = new SchemaFormWidget(dialog);
        form->setObjectName(u"elicitationForm"_s);
        // Accept sends the defaults the user left (SEP-1034), and the form says so.
        form->setDefaultsSent(true);
        form->setSchema(r.params.value("requestedSchema"_L1).toObject());
        layout->addWidget(form, 1);
    }
    auto *buttons = new QDialogButtonBox(dialog);
    QPushButton *accept = buttons->addButton(tr("Accept"), QDialogButtonBox::AcceptRole);
    accept->setObjectName(u"elicitationAccept"_s);
    accept->setToolTip(tr("Send what the form holds"));
    QPushButton *decline = buttons->addButton(tr("Decline"), QDialogButtonBox::RejectRole);
    decline->setObjectName(u"elicitationDecline"_s);
    decline->setToolTip(tr("Tell the server you decline"));
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(u"elicitationCancel"_s);
    layout->addWidget(buttons);
    bool *answered = new bool(false);
    connect(dialog, &QObject::destroyed, this, [answered] { delete answered; });
    auto answer = [this, r, dialog, answered](const QString &action, const QJsonObject &content) {
        QJsonObject result{{"action"_L1, action}};
        if (action == "accept"_L1 && !content.isEmpty())
            result.insert("content"_L1, content);
        *answered = true;
        m_host.reply({r.server, r.generation, r.id, result, {}});
        dialog->close();
    };
    connect(accept, &QPushButton::clicked, dialog, [answer, form, r] {
        QJsonObject content;
        if (form)
            content = Mcp::elicitationDefaults(r.params.value("requestedSchema"_L1).toObject(),
                                               form->value());
        answer(u"accept"_s, content);
    });
    connect(decline, &QPushButton::clicked, dialog, [answer] { answer(u"decline"_s, {}); });
    connect(cancel, &QPushButton::clicked, dialog, [answer] { answer(u"cancel"_s, {}); });
    connect(dialog, &QDialog::finished, this, [this, r, answered] {
        if (!*answered)
            m_host.reply({r.server, r.generation, r.id, {{"action"_L1, "cancel"_L1}}, {}});
        *answered = true;
    });
    dialog->show();
    fitToContent(dialog);
    Q_EMIT requestShown(r.method, dialog);
}

void GuiServerRequestHandler::fitToContent(QDialog *dialog)
{
    const QWidget *anchor = dialog->parentWidget() ? dialog->parentWidget() : dialog;
    const QRect screen = anchor->screen()->availableGeometry();
    // Room for the window frame and title bar, which the geometry here does not include.
    const QSize most = screen.size() * 9 / 10;
    // After show(): before it, every child counts as hidden, and the layout as empty.
    QLayout *layout = dialog->layout();
    layout->activate();
    const QSize hint = dialog->sizeHint();
    const int width = std::clamp(hint.width(), std::min(420, most.width()), most.width());
    const int height =
        layout->hasHeightForWidth() ? layout->totalHeightForWidth(width) : hint.height();
    dialog->resize(width, std::clamp(height, dialog->minimumSizeHint().height(), most.height()));
}

} // namespace Sonde

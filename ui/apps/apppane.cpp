// SPDX-License-Identifier: MIT
#include "apps/apppane.h"

#include "application/apps/apphostcontext.h"
#include "application/apps/appsession.h"
#include "apps/appcsp.h"
#include "apps/appview.h"
#include "apps/appviewloader.h"

#include <QDesktopServices>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

AppPane::AppPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(u"appStatus"_s);
    layout->addWidget(m_status);
    m_split = new QSplitter(Qt::Vertical, this);
    m_holder = new QWidget(m_split);
    m_holderLayout = new QVBoxLayout(m_holder);
    m_holderLayout->setContentsMargins(0, 0, 0, 0);
    m_log = new QPlainTextEdit(m_split);
    m_log->setObjectName(u"appLog"_s);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("The App's log: what it logs, says and asks, and what its "
                                 "policy blocks"));
    m_split->addWidget(m_holder);
    m_split->addWidget(m_log);
    m_split->setStretchFactor(0, 4);
    m_split->setStretchFactor(1, 1);
    // The App takes most of the room (its holder has no size hint of its own to claim it).
    m_split->setSizes({4000, 1000});
    // Hidden until a tool has an App, the pane must not make the answer's tabs taller: its
    // layout would otherwise set its minimum from the log's and the status line's.
    setMinimumSize(1, 1);
    layout->addWidget(m_split, 1);
    updateStatus();
}

AppPane::~AppPane()
{
    retire();
}

void AppPane::retire()
{
    delete m_fullscreen;
    m_fullscreen = nullptr;
    m_view.reset();
    m_leaving.clear();
}

void AppPane::closeApp(const QString &reason)
{
    if (!m_session)
        return;
    AppSession *leaving = m_session;
    m_session = nullptr;
    if (m_fullscreen) {
        m_fullscreen->deleteLater();
        m_fullscreen = nullptr;
    }
    m_view->widget()->hide();
    // ui/resource-teardown lets the App save its state; it has a second, then it goes. The
    // pane keeps it until then (and deletes it with itself, before QtWebEngine's profile).
    m_leaving.push_back({leaving, std::move(m_view)});
    QObject::disconnect(leaving, nullptr, this, nullptr);
    auto finish = [this, leaving] {
        for (auto it = m_leaving.begin(); it != m_leaving.end(); ++it) {
            if (it->session == leaving) {
                it->session->deleteLater();
                m_leaving.erase(it);
                return;
            }
        }
    };
    connect(leaving, &AppSession::tornDown, this, finish, Qt::QueuedConnection);
    QTimer::singleShot(1000, leaving, finish);
    leaving->teardown(reason);
    m_resultPainted = false;
    m_refusal.clear();
    m_log->clear();
    updateStatus();
}

void AppPane::showRefusal(const QString &reason)
{
    closeApp(u"another answer is shown"_s);
    m_refusal = reason;
    updateStatus();
}

void AppPane::showApp(AppSession *session)
{
    closeApp(u"another App is shown"_s);
    m_refusal.clear();
    session->setParent(this);
    m_session = session;
    QString error;
    AppViewFactory *factory = AppViewLoader::factory(&error);
    if (!factory) {
        m_refusal = error;
        m_session->note(u"error"_s, error);
        appendLog(u"error"_s, error);
        updateStatus();
        return;
    }
    m_sandboxNote = factory->chromiumSandbox() ? QString() : factory->sandboxNote();
    AppView::Callbacks callbacks;
    QPointer<AppSession> s = session;
    callbacks.message = [s](const QJsonObject &m) {
        if (s)
            s->fromApp(m);
    };
    callbacks.console = [s](const QString &level, const QString &text) {
        if (s)
            s->console(level, text);
    };
    callbacks.permission = [this](const QString &p, std::function<void(bool)> decide) {
        askPermission(p, std::move(decide));
    };
    callbacks.frameAllowed = [frames = session->setup().resource.csp.frameDomains](
                                 const QUrl &url) { return AppCsp::frameAllowed(url, frames); };
    callbacks.framePainted = [this] {
        if (m_session && m_session->toolResultDelivered() && !m_resultPainted) {
            m_resultPainted = true;
            Q_EMIT appPainted();
        }
    };
    m_view = factory->create(m_holder, std::move(callbacks));
    m_view->widget()->setObjectName(u"appView"_s);
    m_holderLayout->addWidget(m_view->widget());
    wire();
    if (!m_sandboxNote.isEmpty())
        m_session->note(u"warning"_s, m_sandboxNote);
    const AppResource &r = m_session->setup().resource;
    const AppCsp::Built csp = AppCsp::build(r.csp);
    for (const QString &why : csp.refused)
        m_session->note(u"warning"_s, u"left out of the App's policy: "_s + why);
    m_session->note(u"info"_s, u"policy: "_s + csp.policy);
    // QtWebEngine 6.4 never asks about the clipboard: a declared clipboardWrite is asked of the
    // user here, before the App runs, and holds for this App's profile only.
    if (r.permissions.contains(u"clipboardWrite"_s))
        askPermission(u"clipboard write"_s,
                      [view = m_view.get()](bool allow) { view->setClipboardAllowed(allow); });
    m_view->load(r.html, csp.policy, r.permissions);
    updateStatus();
}

void AppPane::wire()
{
    AppSession *s = m_session;
    for (const AppSession::LogLine &l : s->log())
        appendLog(l.level, l.text);
    connect(s, &AppSession::logged, this,
            [this](const AppSession::LogLine &l) { appendLog(l.level, l.text); });
    connect(s, &AppSession::postToApp, this, [this](const QJsonObject &m) {
        if (!m_view)
            return;
        m_view->post(m);
        if (m.value("method"_L1) == "ui/notifications/tool-result"_L1)
            m_view->notifyNextFrame();
    });
    connect(s, &AppSession::toolResultPosted, this, &AppPane::toolResultPosted);
    connect(s, &AppSession::initializedChanged, this, &AppPane::updateStatus);
    connect(s, &AppSession::toolResultPosted, this, &AppPane::updateStatus);
    connect(s, &AppSession::resizeRequested, this, [this](int, int height) {
        if (m_view)
            m_view->setContentHeight(height);
    });
    connect(s, &AppSession::openLinkRequested, this, &AppPane::askToOpen);
    connect(s, &AppSession::displayModeRequested, this, &AppPane::setDisplayMode);
}

void AppPane::appendLog(const QString &level, const QString &text)
{
    m_log->appendPlainText(u"[%1] %2"_s.arg(level, text));
}

QString AppPane::statusText() const
{
    return m_status->text();
}

QString AppPane::logText() const
{
    return m_log->toPlainText();
}

void AppPane::updateStatus()
{
    if (!m_refusal.isEmpty()) {
        m_status->setText(tr("No App shown: %1").arg(m_refusal));
        return;
    }
    if (!m_session) {
        m_status->setText(tr("No App: call a tool whose answer has one."));
        return;
    }
    const AppSession::Setup &s = m_session->setup();
    QString state = m_session->toolResultDelivered() ? tr("has its result")
                    : m_session->initialized()       ? tr("initialized, waiting for the result")
                                                     : tr("loading");
    QString text = tr("%1 (%2): %3").arg(s.resource.uri, s.tool.value("name"_L1).toString(), state);
    text += s.resource.csp.declared ? tr("; network as its policy declares")
                                    : tr("; no network (no policy declared)");
    if (!m_sandboxNote.isEmpty())
        text += u"; "_s + m_sandboxNote;
    m_status->setText(text);
}

void AppPane::askToOpen(const QString &url, const QJsonValue &appId)
{
    QPointer<AppSession> s = m_session;
    if (m_unattended) {
        s->note(u"info"_s, u"not opened, nobody to ask: "_s + url);
        s->linkAnswered(appId, false);
        return;
    }
    const auto answer =
        QMessageBox::question(this, tr("Open link"),
                              tr("The App asks to open this link in your browser:\n\n%1").arg(url));
    const bool open = answer == QMessageBox::Yes && QDesktopServices::openUrl(QUrl(url));
    if (s)
        s->linkAnswered(appId, open);
}

void AppPane::askPermission(const QString &permission, std::function<void(bool)> decide)
{
    if (!m_session) {
        decide(false);
        return;
    }
    const QStringList declared = m_session->setup().resource.permissions;
    const bool isDeclared =
        permission == "camera and microphone"_L1
            ? declared.contains(u"camera"_s) && declared.contains(u"microphone"_s)
        : permission == "clipboard write"_L1 ? declared.contains(u"clipboardWrite"_s)
                                             : declared.contains(permission);
    if (!isDeclared) {
        m_session->note(u"warning"_s,
                        u"denied %1: the App's resource did not declare it"_s.arg(permission));
        decide(false);
        return;
    }
    if (m_unattended) {
        m_session->note(u"info"_s, u"denied %1, nobody to ask"_s.arg(permission));
        decide(false);
        return;
    }
    const bool allow = QMessageBox::question(this, tr("Permission"),
                                             tr("The App %1 asks for %2. Allow it?")
                                                 .arg(m_session->setup().resource.uri,
                                                      permission)) == QMessageBox::Yes;
    m_session->note(u"info"_s,
                    u"%1 %2 by the user"_s.arg(permission, allow ? u"allowed"_s : u"denied"_s));
    decide(allow);
}

void AppPane::setDisplayMode(const QString &mode)
{
    if (!m_view)
        return;
    QWidget *w = m_view->widget();
    if (mode == "fullscreen"_L1 && !m_fullscreen) {
        // Its own window, as the spec's desktop host does; Escape or closing it brings the App
        // back into the answer.
        m_fullscreen = new QWidget(nullptr, Qt::Window);
        m_fullscreen->setWindowTitle(tr("%1 — Sonde").arg(m_session->setup().resource.uri));
        auto *l = new QVBoxLayout(m_fullscreen);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(w);
        m_fullscreen->installEventFilter(this);
        m_fullscreen->showFullScreen();
    } else if (mode == "inline"_L1 && m_fullscreen) {
        m_holderLayout->addWidget(w);
        m_fullscreen->deleteLater();
        m_fullscreen = nullptr;
    }
}

void AppPane::setAppOnly(bool on)
{
    m_status->setVisible(!on);
    m_log->setVisible(!on);
}

QImage AppPane::grabApp() const
{

    return m_view ? m_view->grab() : QImage();
}

void AppPane::paletteChanged()
{
    if (m_session)
        m_session->hostContextChanged(AppHostContext::themeOf(palette()));
}

bool AppPane::eventFilter(QObject *watched, QEvent *event)
{
    // Escape (a key the App's page left alone) or closing the window: back into the answer.
    const bool back =
        watched == m_fullscreen && ((event->type() == QEvent::KeyPress &&
                                     static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) ||
                                    event->type() == QEvent::Close);
    if (!back)
        return QWidget::eventFilter(watched, event);
    if (m_session)
        m_session->hostContextChanged({{"displayMode"_L1, "inline"_L1}});
    setDisplayMode(u"inline"_s);
    return true;
}

void AppPane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        paletteChanged();
}

} // namespace Sonde

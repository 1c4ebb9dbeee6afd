// SPDX-License-Identifier: MIT
#include "window/mainwindowactions.h"

#include "application/servers/serverlistmodel.h"

#include <QAction>
#include <QActionGroup>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
struct Spec
{
    MainWindowActions::Id id;
    const char *name;
    const char *text;
    const char *tip;
    QKeySequence::StandardKey standard = QKeySequence::UnknownKey;
    // Without a standard key, or where the platform has none for it (Quit and Save As are
    // empty on Qt's generic theme: offscreen, some window managers).
    QKeyCombination key = {};
};

// In the order of the Id enum.
const Spec Specs[] = {
    {MainWindowActions::Import, "import", QT_TR_NOOP("&Import config…"),
     QT_TR_NOOP("Add servers from a Claude Desktop, Cursor, VS Code or mcp.json file"),
     QKeySequence::Open},
    {MainWindowActions::Export, "export", QT_TR_NOOP("&Export transcript…"),
     QT_TR_NOOP("Write the transcript or the History tab's session as JSON Lines, Markdown, "
                "HAR or OTLP, saying first what the file will hold"),
     QKeySequence::SaveAs, Qt::CTRL | Qt::SHIFT | Qt::Key_S},
    {MainWindowActions::RunCollection, "runCollection", QT_TR_NOOP("&Run collection…"),
     QT_TR_NOOP("Run a saved collection of calls and show which passed (as sonde-cli run)")},
    {MainWindowActions::Quit, "quit", QT_TR_NOOP("&Quit"),
     QT_TR_NOOP("Close every session cleanly, then quit"), QKeySequence::Quit,
     Qt::CTRL | Qt::Key_Q},
    {MainWindowActions::Find, "find", QT_TR_NOOP("&Find"),
     QT_TR_NOOP("Search the tools, or the transcript on its tab"), QKeySequence::Find},
    {MainWindowActions::Add, "add", QT_TR_NOOP("&Add server…"),
     QT_TR_NOOP("Add a stdio or HTTP server"), QKeySequence::New},
    {MainWindowActions::Edit, "edit", QT_TR_NOOP("&Edit server…"),
     QT_TR_NOOP("Change the selected server's settings")},
    {MainWindowActions::Remove, "remove", QT_TR_NOOP("&Remove server…"),
     QT_TR_NOOP("Remove the selected server (asks first)")},
    {MainWindowActions::MoveUp, "moveUp", QT_TR_NOOP("Move &up"),
     QT_TR_NOOP("Move the selected server up the list"), QKeySequence::UnknownKey,
     Qt::CTRL | Qt::SHIFT | Qt::Key_Up},
    {MainWindowActions::MoveDown, "moveDown", QT_TR_NOOP("Move &down"),
     QT_TR_NOOP("Move the selected server down the list"), QKeySequence::UnknownKey,
     Qt::CTRL | Qt::SHIFT | Qt::Key_Down},
    {MainWindowActions::Connect, "connect", QT_TR_NOOP("Disconnect"),
     QT_TR_NOOP("Close the selected server's session, or open it again")},
    {MainWindowActions::Reconnect, "reconnect", QT_TR_NOOP("&Reconnect"),
     QT_TR_NOOP("Tear the session down and start a new one on the same route"),
     QKeySequence::UnknownKey, Qt::CTRL | Qt::Key_R},
    {MainWindowActions::Ping, "ping", QT_TR_NOOP("&Ping"),
     QT_TR_NOOP("Send ping to the selected server")},
    {MainWindowActions::Call, "call", QT_TR_NOOP("&Call tool"),
     QT_TR_NOOP("Call the selected tool with the form's values"), QKeySequence::UnknownKey,
     Qt::CTRL | Qt::Key_Return},
    {MainWindowActions::CancelCall, "cancel", QT_TR_NOOP("Cancel c&all"),
     QT_TR_NOOP("Cancel the call in flight (notifications/cancelled)"), QKeySequence::Cancel},
    {MainWindowActions::DarkMode, "dark", QT_TR_NOOP("&Dark mode"),
     QT_TR_NOOP("Use a dark palette (remembered)")},
    {MainWindowActions::Shortcuts, "shortcuts", QT_TR_NOOP("&Keyboard shortcuts"),
     QT_TR_NOOP("List every keyboard shortcut")},
    {MainWindowActions::About, "about", QT_TR_NOOP("&About Sonde"),
     QT_TR_NOOP("Sonde's version, and the versions of Qt and the highlighter")},
    // Ctrl+O is Import config's (the standard Open key).
    {MainWindowActions::OpenTranscript, "openTranscript", QT_TR_NOOP("&Open transcript…"),
     QT_TR_NOOP("Open a transcript file (Sonde's JSON Lines or the MCP Inspector's JSON "
                "export) offline, in the History tab"),
     QKeySequence::UnknownKey, Qt::CTRL | Qt::SHIFT | Qt::Key_O},
    {MainWindowActions::HistorySettings, "historySettings", QT_TR_NOOP("&History settings…"),
     QT_TR_NOOP("How long the recorded history is kept; clear it")},
    {MainWindowActions::WrapConfig, "wrapConfig", QT_TR_NOOP("&Wrap in a client config…"),
     QT_TR_NOOP("Put sonde-cli proxy in the path of a server of Claude Desktop, Claude Code, "
                "Cursor or VS Code, to watch the client's real session (and take it out again)")},
};
static_assert(std::size(Specs) == MainWindowActions::IdCount);
} // namespace

MainWindowActions::MainWindowActions(QMainWindow *window) : QObject(window), m_window(window)
{
    for (const Spec &s : Specs) {
        Q_ASSERT(int(m_actions.size()) == s.id);
        auto *a = new QAction(tr(s.text), window);
        a->setObjectName(u"action:"_s + QLatin1StringView(s.name));
        a->setToolTip(tr(s.tip));
        a->setStatusTip(tr(s.tip));
        if (s.standard != QKeySequence::UnknownKey)
            a->setShortcuts(s.standard);
        if (a->shortcuts().isEmpty() && s.key.toCombined())
            a->setShortcut(QKeySequence(s.key));
        // Shortcuts work with the menus closed and the toolbar hidden.
        window->addAction(a);
        m_actions.append(a);
    }
    action(DarkMode)->setCheckable(true);
}

void MainWindowActions::mirrorButtons(const QList<QPair<QString, QPushButton *>> &buttons)
{
    for (const auto &[name, button] : buttons) {
        const QString menuText = button->property("menuText").toString();
        auto *a = new QAction(menuText.isEmpty() ? button->text() : menuText, m_window);
        a->setObjectName(u"action:"_s + name);
        a->setToolTip(button->toolTip());
        a->setStatusTip(button->toolTip());
        a->setEnabled(button->isEnabled());
        connect(a, &QAction::triggered, button, &QPushButton::click);
        button->installEventFilter(this);
        button->setProperty("mirroredBy", QVariant::fromValue(a));
        m_faults.append(a);
    }
}

bool MainWindowActions::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::EnabledChange) {
        auto *button = static_cast<QPushButton *>(watched);
        if (auto *a = button->property("mirroredBy").value<QAction *>())
            a->setEnabled(button->isEnabled());
    } else if (event->type() == QEvent::DynamicPropertyChange &&
               static_cast<QDynamicPropertyChangeEvent *>(event)->propertyName() == "menuText") {
        // The panel's parameter changed (the delay, the status): the entry says the new one.
        auto *button = static_cast<QPushButton *>(watched);
        if (auto *a = button->property("mirroredBy").value<QAction *>())
            a->setText(button->property("menuText").toString());
    }
    return QObject::eventFilter(watched, event);
}

void MainWindowActions::followTabs(QTabWidget *tabs)
{
    m_tabGroup = new QActionGroup(this);
    m_tabGroup->setExclusive(true);
    for (int i = 0; i < tabs->count(); ++i) {
        const QString tab = tabs->tabText(i);
        auto *a = new QAction(tab, m_window);
        a->setObjectName(u"action:tab:%1"_s.arg(i + 1));
        a->setToolTip(tr("Show the %1 tab").arg(tab));
        a->setCheckable(true);
        if (i < 9)
            a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        else if (i == 9)
            a->setShortcut(QKeySequence(Qt::ALT | Qt::Key_0));
        m_tabGroup->addAction(a);
        m_window->addAction(a);
        connect(a, &QAction::triggered, tabs, [tabs, i] { tabs->setCurrentIndex(i); });
        m_tabActions.append(a);
    }
    const auto check = [this](int i) {
        if (i >= 0 && i < m_tabActions.size())
            m_tabActions.at(i)->setChecked(true);
    };
    connect(tabs, &QTabWidget::currentChanged, this, check);
    check(tabs->currentIndex());
}

void MainWindowActions::buildMenus()
{
    QMenuBar *bar = m_window->menuBar();
    bar->setAccessibleName(tr("Menu bar"));
    const auto menu = [&](const QString &name, const QString &title) {
        QMenu *m = bar->addMenu(title);
        m->setObjectName(u"menu:"_s + name);
        m->setAccessibleName(QString(title).remove(u'&'));
        m->setToolTipsVisible(true);
        return m;
    };
    QMenu *file = menu(u"file"_s, tr("&File"));
    file->addActions({action(Import), action(OpenTranscript), action(Export), action(RunCollection),
                      action(HistorySettings)});
    file->addSeparator();
    file->addAction(action(Quit));
    menu(u"edit"_s, tr("&Edit"))->addAction(action(Find));
    QMenu *server = menu(u"server"_s, tr("&Server"));
    server->addActions({action(Add), action(Edit), action(Remove)});
    server->addSeparator();
    server->addActions({action(MoveUp), action(MoveDown)});
    server->addSeparator();
    server->addActions({action(Connect), action(Reconnect), action(Ping)});
    server->addSeparator();
    server->addActions({action(Call), action(CancelCall)});
    server->addSeparator();
    server->addAction(action(WrapConfig));
    QMenu *faults = menu(u"faults"_s, tr("F&aults"));
    for (QAction *a : std::as_const(m_faults)) {
        faults->addAction(a);
        if (a->objectName() == "action:breaker:trip"_L1)
            faults->addSeparator();
    }
    QMenu *view = menu(u"view"_s, tr("&View"));
    view->addActions(m_tabActions);
    view->addSeparator();
    view->addAction(action(DarkMode));
    QMenu *help = menu(u"help"_s, tr("&Help"));
    help->addActions({action(Shortcuts), action(About)});

    QToolBar *tools = m_window->addToolBar(tr("Session"));
    tools->setObjectName(u"mainToolBar"_s);
    tools->setAccessibleName(tr("Session toolbar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tools->addActions({action(Connect), action(Reconnect)});
    tools->addSeparator();
    m_state = new QLabel(tools);
    m_state->setObjectName(u"toolbarState"_s);
    m_state->setAccessibleName(tr("Selected server's state"));
    m_state->setContentsMargins(8, 0, 8, 0);
    tools->addWidget(m_state);
    for (QAction *a : tools->actions())
        if (QWidget *w = tools->widgetForAction(a); w && w != m_state)
            w->setAccessibleName(a->text());
}

void MainWindowActions::setServer(const QString &name, const SessionSnapshot *s, int row, int count,
                                  bool proxied)
{
    const bool any = s != nullptr;
    action(Remove)->setEnabled(any);
    for (Id id : {Edit, Connect, Reconnect})
        action(id)->setEnabled(any && !proxied);
    action(MoveUp)->setEnabled(any && row > 0);
    action(MoveDown)->setEnabled(any && row >= 0 && row + 1 < count);
    const bool open = any && (s->state == SessionSnapshot::State::Ready ||
                              s->state == SessionSnapshot::State::Starting ||
                              s->state == SessionSnapshot::State::Initializing);
    action(Connect)->setText(open ? tr("Disconnect") : tr("Connect"));
    action(Connect)->setProperty("connected", open);
    action(Ping)->setEnabled(any && !proxied && s->state == SessionSnapshot::State::Ready);
    if (m_state) {
        m_state->setText(any ? u"%1 — %2"_s.arg(name, ServerListModel::summary(*s))
                             : tr("No server selected"));
        if (QToolBar *bar = qobject_cast<QToolBar *>(m_state->parent()))
            if (QWidget *w = bar->widgetForAction(action(Connect)))
                w->setAccessibleName(action(Connect)->text());
    }
}

QList<QAction *> MainWindowActions::withShortcuts() const
{
    QList<QAction *> out;
    for (QAction *a : m_actions + m_tabActions + m_faults)
        if (!a->shortcut().isEmpty())
            out.append(a);
    return out;
}

} // namespace Sonde

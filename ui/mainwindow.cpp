// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "engine/corehost.h"
#include "jsonview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

MainWindow::MainWindow(CoreHost &host, QWidget *parent) : QMainWindow(parent), m_host(host)
{
    setWindowTitle(u"Sonde"_s);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    m_session = new QLabel(u"No server yet"_s, central);
    m_session->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_session);
    auto *split = new QSplitter(central);
    m_tools = new QListWidget(split);
    m_detail = new JsonView(split);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setCentralWidget(central);
    resize(960, 600);

    connect(&m_host, &CoreHost::sessionChanged, this, &MainWindow::onSessionChanged);
    connect(&m_host, &CoreHost::callFinished, this, [this](const CallOutcome &o) {
        if (o.method != "tools/list"_L1 || !o.ok())
            return;
        m_tools->clear();
        for (const QJsonValue &t : o.result.toObject().value("tools"_L1).toArray()) {
            auto *item = new QListWidgetItem(t.toObject().value("name"_L1).toString(), m_tools);
            item->setData(Qt::UserRole, QJsonDocument(t.toObject()).toJson(QJsonDocument::Compact));
        }
        if (m_tools->count() > 0)
            m_tools->setCurrentRow(0);
        statusBar()->showMessage(u"%1 tools in %2 ms"_s.arg(m_tools->count()).arg(o.finishedMs - o.startedMs));
    });
    connect(m_tools, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item)
            m_detail->setJson(item->data(Qt::UserRole).toByteArray());
    });
}

void MainWindow::onSessionChanged(const SessionSnapshot &s)
{
    QString text = u"<b>%1</b> — %2 · %3 · protocol %4 · generation %5"_s.arg(
        s.server.toHtmlEscaped(), SessionSnapshot::stateName(s.state), s.route,
        s.protocolVersion.isEmpty() ? u"–"_s : s.protocolVersion).arg(s.generation);
    if (s.transport.contains("pid"_L1))
        text += u" · pid %1"_s.arg(s.transport.value("pid"_L1).toInteger());
    if (s.lastError.isError())
        text += u"<br><span style='color:#c62828'>%1</span>"_s.arg(s.lastError.message().toHtmlEscaped());
    m_session->setText(text);
    if (s.state == SessionSnapshot::State::Ready)
        m_host.call(s.server, u"tools/list"_s);
}

} // namespace Sonde

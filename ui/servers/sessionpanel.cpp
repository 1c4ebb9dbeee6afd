// SPDX-License-Identifier: MIT
#include "servers/sessionpanel.h"
#include "util/durationtext.h"

#include "application/servers/serverlistmodel.h"
#include "application/servers/serverviewstore.h"
#include "application/transcript/rev20260728eventsummary.h"
#include "window/formlabels.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QClipboard>
#include <QComboBox>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

static QLabel *selectable(QWidget *parent, const QString &objectName)
{
    auto *l = new QLabel(parent);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    return l;
}

namespace {

} // namespace

QString SessionPanel::listenText(const ListenStatus &listen)
{
    using State = ListenStatus::State;
    const QJsonValue &idValue = listen.id;
    const QString id = idValue.isDouble()   ? QString::number(idValue.toInteger())
                       : idValue.isString() ? idValue.toString()
                                            : QString();
    const QString stream = id.isEmpty() ? tr("listen") : tr("listen #%1").arg(id);
    switch (listen.state) {
    case State::Open: {
        const QStringList requested = Rev20260728EventSummary::filterItems(listen.requested);
        return tr("open (%1), waiting for the server's acknowledgement; asked for %2")
            .arg(stream, requested.isEmpty() ? tr("nothing") : requested.join(u", "_s));
    }
    case State::Acknowledged: {
        const QStringList granted = Rev20260728EventSummary::filterItems(listen.granted);
        const QStringList refused =
            Rev20260728EventSummary::notGranted(listen.requested, listen.granted);
        QString text = tr("acknowledged (%1): granted %2")
                           .arg(stream, granted.isEmpty() ? tr("nothing") : granted.join(u", "_s));
        if (!refused.isEmpty())
            text += tr("; asked for but not granted: %1").arg(refused.join(u", "_s));
        return text;
    }
    case State::Ended:
        return tr("ended by the server (%1)").arg(stream);
    case State::Dropped:
        return tr("dropped (%1); listening again").arg(stream);
    case State::None:
    case State::Refused:
        break;
    }
    return tr("not open");
}

QString SessionPanel::cacheHintsText(const CacheHints &cacheHints)
{
    QStringList parts;
    for (auto it = cacheHints.begin(); it != cacheHints.end(); ++it) {
        const qint64 ttl = it->ttlMs.value_or(-1);
        const QString scope = it->cacheScope.value_or(QString());
        QString fresh = ttl > 0    ? tr("fresh for %1").arg(durationText(ttl))
                        : ttl == 0 ? tr("stale at once")
                                   : tr("no time to live");
        parts.append(it.key() + u": "_s + (scope.isEmpty() ? fresh : fresh + u", "_s + scope));
    }
    return parts.join(u"\n"_s);
}

SessionPanel::SessionPanel(ServerViewStore *store, QWidget *parent)
    : QWidget(parent), m_store(store)
{
    auto *outer = new QVBoxLayout(this);
    auto *buttons = new QHBoxLayout;
    auto *reconnect = new QPushButton(tr("Reconnect now"), this);
    reconnect->setObjectName(u"reconnectButton"_s);
    reconnect->setToolTip(
        tr("Tear the session down and start a new one on the same route (Ctrl+R)"));
    m_connect = new QPushButton(tr("Disconnect"), this);
    m_connect->setObjectName(u"disconnectButton"_s);
    m_connect->setToolTip(tr("Close the session, or open it again"));
    auto *ping = m_ping = new QPushButton(tr("Ping"), this);
    ping->setObjectName(u"pingButton"_s);
    ping->setToolTip(tr("Send ping and show how long the answer took"));
    reconnect->setAccessibleName(tr("Reconnect now"));
    ping->setAccessibleName(tr("Ping"));
    buttons->addWidget(reconnect);
    buttons->addWidget(m_connect);
    buttons->addWidget(ping);
    buttons->addStretch();
    auto *level = new QComboBox(this);
    m_logLevel = level;
    level->setObjectName(u"logLevel"_s);
    level->setToolTip(tr("logging/setLevel: the least severe log message the server should send"));
    level->addItems({u"debug"_s, u"info"_s, u"notice"_s, u"warning"_s, u"error"_s, u"critical"_s,
                     u"alert"_s, u"emergency"_s});
    level->setCurrentText(u"info"_s);
    level->setAccessibleName(tr("Log level"));
    connect(level, &QComboBox::textActivated, this, &SessionPanel::logLevelRequested);
    buttons->addWidget(new QLabel(tr("Log level"), this));
    buttons->addWidget(level);
    outer->addLayout(buttons);
    connect(reconnect, &QPushButton::clicked, this, &SessionPanel::reconnectRequested);
    connect(ping, &QPushButton::clicked, this, &SessionPanel::pingRequested);
    connect(m_connect, &QPushButton::clicked, this, [this] {
        if (m_connect->property("connected").toBool())
            Q_EMIT disconnectRequested();
        else
            Q_EMIT connectRequested();
    });

    auto *form = m_form = new QFormLayout;
    m_state = selectable(this, u"stateLabel"_s);
    m_era = selectable(this, u"eraLabel"_s);
    m_sessionId = selectable(this, u"sessionIdLabel"_s);
    auto *idRow = new QHBoxLayout;
    idRow->addWidget(m_sessionId, 1);
    auto *copy = m_copyId = new QToolButton(this);
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the session id"));
    copy->setAccessibleName(tr("Copy the session id"));
    copy->setObjectName(u"copySessionId"_s);
    connect(copy, &QToolButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_sessionId->text()); });
    idRow->addWidget(copy);
    m_protocol = selectable(this, u"protocolLabel"_s);
    m_transport = selectable(this, u"transportLabel"_s);
    m_generationLabel = selectable(this, u"generationLabel"_s);
    m_server = selectable(this, u"serverInfoLabel"_s);
    m_getStream = selectable(this, u"getStreamLabel"_s);
    m_listen = selectable(this, u"listenLabel"_s);
    m_listen->setToolTip(tr("subscriptions/listen: the stream the server's notifications come on "
                            "(2026-07-28)"));
    m_cacheHints = selectable(this, u"cacheHintsLabel"_s);
    m_cacheHints->setToolTip(
        tr("ttlMs and cacheScope of the lists and reads: how long an answer may be reused"));
    m_process = selectable(this, u"processLabel"_s);
    m_error = selectable(this, u"errorLabel"_s);
    m_error->setStyleSheet(u"color: #c62828"_s);
    form->addRow(tr("State"), m_state);
    form->addRow(tr("Era"), m_era);
    form->addRow(tr("Session id"), idRow);
    form->addRow(tr("Protocol"), m_protocol);
    form->addRow(tr("Transport"), m_transport);
    form->addRow(tr("Generation"), m_generationLabel);
    form->addRow(tr("Server"), m_server);
    form->addRow(tr("GET stream"), m_getStream);
    form->addRow(tr("Listen stream"), m_listen);
    form->addRow(tr("Cache hints"), m_cacheHints);
    form->addRow(tr("Process"), m_process);
    form->addRow(tr("Last error"), m_error);
    FormLabels::nameFields(form);
    m_sessionId->setAccessibleName(tr("Session id"));
    outer->addLayout(form);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_instructions = new QPlainTextEdit(split);
    m_instructions->setReadOnly(true);
    m_instructions->setPlaceholderText(tr("Server instructions"));
    m_instructions->setAccessibleName(tr("Server instructions"));
    m_capabilities = new JsonView(split);
    m_capabilities->setAccessibleName(tr("Capabilities"));
    m_stderr = new QPlainTextEdit(split);
    m_stderr->setObjectName(u"stderrView"_s);
    m_stderr->setReadOnly(true);
    m_stderr->setAccessibleName(tr("Server stderr"));
    m_stderr->setMaximumBlockCount(5000);
    m_stderr->setPlaceholderText(tr("stderr of a stdio server"));
    m_stderr->setFont(m_capabilities->font());
    outer->addWidget(split, 1);
    connect(m_store, &ServerViewStore::stderrAppended, this,
            [this](const QString &server, const QString &line) {
                if (server == m_shownServer)
                    appendStderr(line);
            });
}

void SessionPanel::showServer(const QString &server)
{
    m_shownServer = server;
    m_stderr->clear();
    for (const QString &line : m_store->stderrLines(server))
        appendStderr(line);
}

void SessionPanel::setSnapshot(const SessionSnapshot &s)
{
    m_generation = s.generation;
    m_state->setText(u"<span style='color:%1'>●</span> %2"_s.arg(
        ServerListModel::stateColor(s.state).name(), SessionSnapshot::stateName(s.state)));
    const bool modern = s.sessionless;
    m_era->setText(!s.era                  ? u"–"_s
                   : s.eraReason.isEmpty() ? s.eraName()
                                           : u"%1 — %2"_s.arg(s.eraName(), s.eraReason));
    // Modern has no session: an id left from a legacy generation would be a stale one.
    if (modern)
        m_sessionId->setText(
            tr("none — %1 has no sessions")
                .arg(s.protocolVersion.isEmpty() ? u"2026-07-28"_s : s.protocolVersion));
    else
        m_sessionId->setText(s.sessionId.isEmpty()
                                 ? tr("(none: %1)").arg(ServerConfig::routeName(s.route))
                                 : s.sessionId);
    m_copyId->setEnabled(!modern && !s.sessionId.isEmpty());
    m_protocol->setText(s.protocolVersion.isEmpty() ? u"–"_s : s.protocolVersion);
    const QString route = ServerConfig::routeName(s.route);
    m_transport->setText(s.routeReason.isEmpty() ? route : u"%1 — %2"_s.arg(route, s.routeReason));
    m_generationLabel->setText(QString::number(s.generation));
    const QString serverName =
        s.serverInfo.value("title"_L1).toString(s.serverInfo.value("name"_L1).toString());
    m_server->setText(
        serverName.isEmpty()
            ? u"–"_s
            : u"%1 %2"_s.arg(serverName, s.serverInfo.value("version"_L1).toString()).trimmed());
    m_getStream->setText(s.transport.getStream.value_or(u"–"_s));
    m_listen->setText(s.subscriptions ? listenText(*s.subscriptions) : tr("not open"));
    m_cacheHints->setText(s.cacheHints.isEmpty() ? u"–"_s : cacheHintsText(s.cacheHints));
    // 2026-07-28 has no ping and no logging/setLevel: the level rides on every request.
    m_ping->setEnabled(!modern);
    m_ping->setToolTip(modern ? tr("2026-07-28 has no ping: any answered request shows the "
                                   "server is there")
                              : tr("Send ping and show how long the answer took"));
    m_logLevel->setToolTip(
        modern ? tr("The least severe log message the server should send, carried in every "
                    "request's _meta (io.modelcontextprotocol/logLevel)")
               : tr("logging/setLevel: the least severe log message the server should send"));
    m_form->setRowVisible(m_getStream, !modern);
    m_form->setRowVisible(m_listen, modern);
    m_form->setRowVisible(m_cacheHints, modern);
    QStringList process;
    const TransportDetails &t = s.transport;
    if (t.pid)
        process.append(tr("pid %1").arg(*t.pid));
    if (t.uptimeMs)
        process.append(tr("up %1 s").arg(*t.uptimeMs / 1000));
    if (t.exitCode)
        process.append(tr("exit code %1").arg(*t.exitCode));
    if (t.exitSignal)
        process.append(tr("killed by signal %1").arg(*t.exitSignal));
    process.append(tr("%n restart(s)", nullptr, s.restartCount));
    m_process->setText(process.join(u" · "_s));
    m_error->setText(s.lastError.isError() ? s.lastError.message() : QString());
    if (s.instructions != m_shownInstructions) {
        m_shownInstructions = s.instructions;
        TextDisplay::show(m_instructions, s.instructions);
    }
    m_capabilities->setJson(QJsonDocument(QJsonObject{{"server"_L1, s.serverCapabilities},
                                                      {"client"_L1, s.clientCapabilities}})
                                .toJson());
    const bool connected = s.state == SessionSnapshot::State::Ready ||
                           s.state == SessionSnapshot::State::Starting ||
                           s.state == SessionSnapshot::State::Initializing;
    m_connect->setProperty("connected", connected);
    m_connect->setText(connected ? tr("Disconnect") : tr("Connect"));
    m_connect->setAccessibleName(m_connect->text());
}

void SessionPanel::appendStderr(const QString &line)
{
    m_stderr->appendPlainText(TextDisplay::logLine(line));
}

QString SessionPanel::sessionIdText() const
{
    return m_sessionId->text();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/authpanel.h"

#include "application/auth/authstatestore.h"
#include "application/auth/authstatetext.h"
#include "application/auth/authstepmodel.h"
#include "util/clock.h"
#include "util/clocktimer.h"
#include "window/formlabels.h"

#include <QClipboard>
#include <QDesktopServices>
#include <QFontMetrics>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QLabel *selectable(QWidget *parent, const QString &objectName)
{
    auto *l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

// The error colour where it is said, the palette's own text colour elsewhere.
void markError(QLabel *label, bool error)
{
    QPalette p;
    if (error)
        p.setColor(QPalette::WindowText, AuthStepModel::errorColor());
    label->setPalette(p);
}

QPushButton *button(const QString &text, const QString &objectName, const QString &tip,
                    QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    b->setToolTip(tip);
    b->setAccessibleName(text);
    return b;
}

} // namespace

AuthPanel::AuthPanel(AuthStateStore *store, std::shared_ptr<const Clock> clock, QWidget *parent)
    : QWidget(parent), m_store(store),
      m_clock(clock ? std::move(clock) : std::make_shared<SteadyClock>()),
      m_opener([](const QUrl &url) { return QDesktopServices::openUrl(url); })
{
    setObjectName(u"authPanel"_s);
    auto *outer = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_status = selectable(this, u"authStatus"_s);
    m_status->setAccessibleName(tr("Authorization status"));
    m_status->setWordWrap(false);
    QFont big = m_status->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_status->setFont(big);
    top->addWidget(m_status, 1);
    m_signIn = button(tr("Sign in"), u"authSignIn"_s,
                      tr("Run the authorization flow now: discovery, client identity, the "
                         "browser, the token"),
                      this);
    m_refresh = button(tr("Refresh"), u"authRefresh"_s,
                       tr("Trade the refresh token for a new access token"), this);
    m_signOut = button(tr("Sign out"), u"authSignOut"_s,
                       tr("Forget this server's tokens, here and where they are stored"), this);
    for (const auto &[b, action] :
         {std::pair{m_signIn, AuthAction::Login}, std::pair{m_refresh, AuthAction::Refresh},
          std::pair{m_signOut, AuthAction::SignOut}}) {
        top->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, a = action] { Q_EMIT authRequested(a); });
    }
    outer->addLayout(top);
    m_commandError = selectable(this, u"authCommandError"_s);
    m_commandError->setAccessibleName(tr("Last authorization command"));
    markError(m_commandError, true);
    outer->addWidget(m_commandError);

    m_pages = new QStackedWidget(this);
    m_empty = selectable(m_pages, u"authEmpty"_s);
    m_empty->setAccessibleName(tr("Authorization"));
    m_empty->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_pages->addWidget(m_empty);
    auto *flow = new QWidget(m_pages);
    auto *column = new QVBoxLayout(flow);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(buildWaiting());
    m_error = selectable(flow, u"authError"_s);
    m_error->setAccessibleName(tr("Authorization error"));
    markError(m_error, true);
    column->addWidget(m_error);
    column->addWidget(buildToken());

    m_steps = new AuthStepModel(this);
    m_table = new QTableView(flow);
    m_table->setObjectName(u"authSteps"_s);
    m_table->setAccessibleName(tr("Steps of the last flow"));
    m_table->setModel(m_steps);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // The result (an error in words, a reason) wraps; a long URL is cut in its middle, where
    // the well-known path is, with the whole of it in the tooltip.
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_table->horizontalHeader();
    // Sized for their longest words, not to contents: with word wrap on, a wrapped cell's size
    // hint is its narrowest, and the real steps (long URLs beside them) left "P… r… …" of
    // "Protected resource metadata".
    const QFontMetrics metrics = m_table->fontMetrics();
    const auto fit = [&](int section, const QString &widest) {
        header->setSectionResizeMode(section, QHeaderView::Interactive);
        header->resizeSection(section, metrics.horizontalAdvance(widest) + 24);
    };
    fit(AuthStepModel::Step, u"✗ Authorization server metadata"_s);
    fit(AuthStepModel::Status, u"no answer"_s);
    fit(AuthStepModel::Time, u"1 min 23 s"_s);
    header->setSectionResizeMode(AuthStepModel::Request, QHeaderView::Interactive);
    header->resizeSection(AuthStepModel::Request, 320);
    header->setStretchLastSection(true);
    column->addWidget(new QLabel(tr("Steps of the last flow"), flow));
    column->addWidget(m_table, 1);
    m_pages->addWidget(flow);
    outer->addWidget(m_pages, 1);

    m_tick = m_clock->createTimer(this);
    connect(m_tick, &ClockTimer::timeout, this, &AuthPanel::renderExpiry);
    connect(m_store, &AuthStateStore::stateChanged, this, [this](const QString &server) {
        if (server == m_server)
            render();
    });
    connect(m_store, &AuthStateStore::browserWanted, this, &AuthPanel::open);
    render();
}

AuthPanel::~AuthPanel() = default;

QWidget *AuthPanel::buildWaiting()
{
    auto *box = new QFrame(this);
    m_waiting = box;
    box->setObjectName(u"authWaiting"_s);
    box->setFrameShape(QFrame::StyledPanel);
    auto *v = new QVBoxLayout(box);
    m_waitingText = selectable(box, u"authWaitingText"_s);
    m_waitingText->setAccessibleName(tr("Waiting for the browser"));
    v->addWidget(m_waitingText);
    auto *row = new QHBoxLayout;
    m_urlField = new QLineEdit(box);
    m_urlField->setObjectName(u"authUrl"_s);
    m_urlField->setReadOnly(true);
    m_urlField->setAccessibleName(tr("Authorization address"));
    row->addWidget(m_urlField, 1);
    auto *copy = button(tr("Copy"), u"authCopyUrl"_s, tr("Copy the authorization address"), box);
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_url.toString(QUrl::FullyEncoded)); });
    auto *again = button(tr("Open again"), u"authOpenUrl"_s,
                         tr("Open the authorization address in the browser again"), box);
    connect(again, &QPushButton::clicked, this, [this] { open(m_server, m_url); });
    row->addWidget(copy);
    row->addWidget(again);
    v->addLayout(row);
    return box;
}

QWidget *AuthPanel::buildToken()
{
    auto *box = new QGroupBox(tr("Token and client"), this);
    m_token = box;
    box->setObjectName(u"authToken"_s);
    auto *form = m_tokenForm = new QFormLayout(box);
    // In TokenRow's order.
    static const struct
    {
        const char *title;
        const char *objectName;
    } rows[TokenRowCount] = {
        {QT_TR_NOOP("Scopes"), "authScopes"},
        {QT_TR_NOOP("Expires"), "authExpiry"},
        {QT_TR_NOOP("Refresh token"), "authRefreshToken"},
        {QT_TR_NOOP("Client"), "authClient"},
        {QT_TR_NOOP("Authorization server"), "authIssuer"},
        {QT_TR_NOOP("Resource"), "authResource"},
        {QT_TR_NOOP("Stored in"), "authStore"},
    };
    for (std::size_t i = 0; i < TokenRowCount; ++i) {
        m_tokenRows[i] = selectable(box, QString::fromLatin1(rows[i].objectName));
        form->addRow(tr(rows[i].title), m_tokenRows[i]);
    }
    FormLabels::nameFields(form);
    return box;
}

void AuthPanel::showServer(const QString &server, const ServerConfig &config)
{
    m_server = server;
    m_http = config.route != ServerConfig::Route::Stdio;
    m_enabled = config.auth.enabled;
    render();
}

void AuthPanel::open(const QString &server, const QUrl &url)
{
    if (url.isEmpty())
        return;
    if (m_opener(url))
        m_browserFailed.remove(server);
    else
        m_browserFailed.insert(server);
    if (server == m_server)
        render();
}

void AuthPanel::render()
{
    using Status = AuthState::Status;
    const AuthState s = m_store->state(m_server);
    const bool can = !m_server.isEmpty() && m_http && m_enabled;
    const bool never = s.status == Status::None && s.steps.isEmpty();
    m_steps->setSteps(s.steps);

    m_status->setText(never ? (can ? tr("Not signed in") : tr("No authorization"))
                            : AuthStateText::status(s.status));
    markError(m_status, AuthStateText::isFailure(s.status));
    if (m_server.isEmpty())
        m_empty->setText(tr("No server selected."));
    else if (!m_http)
        m_empty->setText(tr("Authorization is for servers reached over HTTP; this one runs "
                            "over stdio, as a local process."));
    else if (!m_enabled)
        m_empty->setText(tr("Authorization is turned off for this server: a 401 is shown as "
                            "an error."));
    else
        m_empty->setText(tr("This server has not asked for authorization. Sign in starts a "
                            "flow now, before it asks."));
    m_pages->setCurrentIndex(never ? 0 : 1);

    const QString commandError = m_store->commandError(m_server);
    // The engine's own words for the same failure are shown once, under the status.
    const bool sameAsState = !s.error.isEmpty() && commandError.endsWith(s.error);
    m_commandError->setText(u"✗ "_s + commandError);
    m_commandError->setVisible(!commandError.isEmpty() && !sameAsState);

    m_url = s.status == Status::AwaitingUser ? s.authorizationUrl : QUrl();
    m_waiting->setVisible(!m_url.isEmpty());
    m_urlField->setText(m_url.toString(QUrl::FullyEncoded));
    m_urlField->setCursorPosition(0);
    m_waitingText->setText(
        m_browserFailed.contains(m_server)
            ? tr("No browser could be opened: copy this address into one and sign in there.")
            : tr("Waiting for the browser: sign in there, and Sonde takes the answer on a "
                 "loopback address. If no browser opened, open this address in one:"));
    m_error->setText(u"✗ "_s + s.error);
    m_error->setVisible(!s.error.isEmpty());

    // Before the first token (a flow under way) only the client's side has anything to say.
    const bool token = s.status == Status::Authorized || s.status == Status::NeedsReauth ||
                       !s.scopes.isEmpty() || s.expiresAtMs != 0 || s.hasRefreshToken;
    for (TokenRow row : {TokenRow::Scopes, TokenRow::Expiry, TokenRow::RefreshToken})
        m_tokenForm->setRowVisible(tokenRow(row), token);
    tokenRow(TokenRow::Scopes)->setText(AuthStateText::scopes(s.scopes));
    m_expiresAtMs = s.expiresAtMs;
    renderExpiry();
    tokenRow(TokenRow::RefreshToken)->setText(AuthStateText::refreshToken(s.hasRefreshToken));
    tokenRow(TokenRow::Client)->setText(AuthStateText::client(s.clientId, s.clientIdSource));
    tokenRow(TokenRow::Issuer)->setText(s.issuer.isEmpty() ? u"—"_s : s.issuer);
    tokenRow(TokenRow::Resource)->setText(s.resource.isEmpty() ? u"—"_s : s.resource);
    tokenRow(TokenRow::Store)->setText(AuthStateText::secretStore(s.secretStore));

    const bool running = s.status == Status::Discovering || s.status == Status::AwaitingUser;
    const std::optional<AuthAction> pending = m_store->pendingAction(m_server);
    const bool idle = can && !running;
    m_signIn->setEnabled(idle && pending != AuthAction::Login);
    m_refresh->setEnabled(idle && s.hasRefreshToken && s.status != Status::NeedsReauth &&
                          s.status != Status::SignedOut && pending != AuthAction::Refresh);
    m_signOut->setEnabled(
        idle &&
        (s.status == Status::Authorized || s.status == Status::NeedsReauth || s.hasRefreshToken) &&
        pending != AuthAction::SignOut);
}

void AuthPanel::renderExpiry()
{
    tokenRow(TokenRow::Expiry)->setText(AuthStateText::expiry(m_expiresAtMs, m_clock->nowMs()));
    if (m_expiresAtMs != 0)
        m_tick->start(1000);
    else
        m_tick->stop();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "values/authvalues.h"

#include <QSet>
#include <QUrl>
#include <QWidget>

#include <array>
#include <functional>
#include <memory>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace Sonde {

class AuthStateStore;
class AuthStepModel;
class Clock;
class ClockTimer;

// One server's authorization (the window's Authorization tab): its status in words, Sign in,
// Refresh and Sign out (each enabled only where it makes sense), the last flow's steps as a
// table (AuthStepModel), the token (scopes, expiry relative and absolute, refresh token,
// client id and its source, where the tokens live), and while the flow waits for the user
// the authorization URL, selectable, with Copy and Open again. A server that never asked
// shows a short empty state instead of an empty table. It shows the AuthStateStore's entry
// of the server it is given, and opens the browser (through the injectable opener, once per
// flow as the store decides) for any server's flow. Thread: GUI. It asks; the window calls
// CoreHost::auth.
class AuthPanel : public QWidget
{
    Q_OBJECT
public:
    using UrlOpener = std::function<bool(const QUrl &)>;

    // `clock` times the expiry's "in 59 min" (a SteadyClock when none is given).
    explicit AuthPanel(AuthStateStore *store, std::shared_ptr<const Clock> clock = {},
                       QWidget *parent = nullptr);
    ~AuthPanel() override;

    void showServer(const QString &server, const ServerConfig &config);
    // QDesktopServices::openUrl unless replaced (tests: no browser).
    void setUrlOpener(UrlOpener opener) { m_opener = std::move(opener); }

Q_SIGNALS:
    // For the shown server.
    void authRequested(Sonde::AuthAction action);

private:
    // The token box's rows, in the order shown (buildToken's table names each).
    enum class TokenRow
    {
        Scopes,
        Expiry,
        RefreshToken,
        Client,
        Issuer,
        Resource,
        Store
    };
    static constexpr std::size_t TokenRowCount = std::size_t(TokenRow::Store) + 1;
    QLabel *tokenRow(TokenRow row) const { return m_tokenRows[std::size_t(row)]; }

    QWidget *buildWaiting();
    QWidget *buildToken();
    void render();
    void renderExpiry();
    void open(const QString &server, const QUrl &url);

    AuthStateStore *m_store = nullptr;
    std::shared_ptr<const Clock> m_clock;
    ClockTimer *m_tick = nullptr;
    UrlOpener m_opener;
    QString m_server;
    bool m_http = false;
    bool m_enabled = true;
    QSet<QString> m_browserFailed; // servers whose last browser opening failed
    QUrl m_url;                    // what Copy and Open again use
    qint64 m_expiresAtMs = 0;

    AuthStepModel *m_steps = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_signIn = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_signOut = nullptr;
    QLabel *m_commandError = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_empty = nullptr;
    QWidget *m_waiting = nullptr;
    QLabel *m_waitingText = nullptr;
    QLineEdit *m_urlField = nullptr;
    QLabel *m_error = nullptr;
    QWidget *m_token = nullptr;
    QFormLayout *m_tokenForm = nullptr;
    std::array<QLabel *, TokenRowCount> m_tokenRows{}; // by TokenRow
    QTableView *m_table = nullptr;
};

} // namespace Sonde

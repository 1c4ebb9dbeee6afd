// SPDX-License-Identifier: MIT
#pragma once

#include "application/apps/appsession.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QVBoxLayout;

namespace Sonde {

class AppView;

// An answer's App tab: a line saying which App this is and how it runs (initialized, its
// policy, the sandbox), the App itself in its web view, and the App's log under it (what it
// logged, said to a chat Sonde does not have, asked of the server, and what its policy
// blocked). It shows one App at a time: a new one tears the last one down first. It asks the
// user before a link opens or a declared permission is granted; a permission the resource
// did not declare is denied without asking. Thread: GUI.
class AppPane : public QWidget
{
    Q_OBJECT
public:
    explicit AppPane(QWidget *parent = nullptr);
    ~AppPane() override;

    // Shows `session`'s App; the pane owns it from here.
    void showApp(AppSession *session);
    // Why there is no App to show (the resource was refused, the view could not load).
    void showRefusal(const QString &reason);
    // Tears the App down (ui/resource-teardown) and empties the pane.
    void closeApp(const QString &reason);
    AppSession *session() const { return m_session; }
    bool hasApp() const { return m_session != nullptr; }
    // The App as painted now (empty without one).
    QImage grabApp() const;
    QString statusText() const;
    QString logText() const;
    // The window's palette changed: the App hears host-context-changed.
    void paletteChanged();
    // Only the App, without the status line and the log (a snapshot's picture).
    void setAppOnly(bool on);
    // Nobody to ask (a snapshot): links and declared permissions are refused, and the log
    // says why, instead of a question nobody answers.
    void setUnattended(bool on) { m_unattended = on; }
    // Whether a view runs without Chromium's sandbox, and why (empty: it runs).
    QString sandboxNote() const { return m_sandboxNote; }

Q_SIGNALS:
    // The App's document has loaded and, once its result was delivered, painted.
    void appPainted();
    void toolResultPosted();

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void wire();
    void appendLog(const QString &level, const QString &text);
    void updateStatus();
    void askToOpen(const QString &url, const QJsonValue &appId);
    void askPermission(const QString &permission, std::function<void(bool)> decide);
    void setDisplayMode(const QString &mode);
    void retire();

    QLabel *m_status = nullptr;
    QSplitter *m_split = nullptr;
    QWidget *m_holder = nullptr;
    QVBoxLayout *m_holderLayout = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QPointer<AppSession> m_session;
    std::unique_ptr<AppView> m_view;
    struct Leaving
    {
        QPointer<AppSession> session;
        std::unique_ptr<AppView> view;
    };
    std::vector<Leaving> m_leaving;  // torn down, waiting for the App's answer
    QWidget *m_fullscreen = nullptr; // the App's own window while it is fullscreen
    QString m_sandboxNote;
    QString m_refusal;
    bool m_resultPainted = false;
    bool m_unattended = false;
};

} // namespace Sonde

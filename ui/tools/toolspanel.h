// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QAction;
class QLineEdit;
class QListView;
class QMenu;
class QProgressBar;
class QPushButton;
class QCheckBox;
class QSplitter;
class QTimer;

namespace Sonde {

class AppPane;
class AuthStateStore;
class BreakerBanner;
class SchemaFormWidget;
class ServerStore;
class ServerViewStore;
class ToolAnswerView;
class ToolDefinitionView;
class ToolFilterModel;
class ToolListModel;

// A server's tools: searchable list with annotation badges and the replay verdict (and its
// per-tool override), an argument form generated from inputSchema beside raw JSON, Call and
// Cancel, progress and elapsed time, and the answer: text, JSON, content blocks (images,
// audio with Save), structuredContent checked against outputSchema, and a banner for errors,
// "outcome uncertain" and breaker refusals (ToolAnswerView). It shows one server of the
// ServerViewStore: that server's tools, its selected tool, the form values typed for each
// tool and each tool's last answer, and writes the selection and the typing back. Beside the
// form's Form and JSON, Definition shows the tool as the server listed it; a row's menu
// copies its name or definition, calls it or asks for its last call in the transcript; an
// MCP App tool links to its ui:// page.
// Thread: GUI. It asks; the window calls the core.
class ToolsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ToolsPanel(ServerViewStore *store, QWidget *parent = nullptr);
    // The servers' snapshots, for the shown server's breaker banner.
    void watchServers(const ServerStore *servers);
    // The servers' authorization, for what a call held for a step-up waits for.
    void watchAuth(const AuthStateStore *auth);
    void showServer(const QString &server);
    bool selectTool(const QString &name);
    QString currentToolName() const;
    SchemaFormWidget *form() const { return m_form; }
    ToolDefinitionView *definitionView() const { return m_definition; }
    // The tool list's row menu (right click, the menu key).
    QMenu *toolMenu() const { return m_toolMenu; }
    void callStarted();
    void showProgress(double progress, double total, const QString &message);
    // What happened to the running call's stream ("stream dropped, resuming…"), under its
    // bar until the call ends or progress comes again.
    void showStreamNote(const QString &note);
    QString streamNote() const; // empty when none is shown
    // The shown server's call held for a step-up: "waiting for you to sign in with scope
    // mcp:write in the browser". Empty when none is shown.
    QString stepUpNote() const;

    // The call in flight ended (on whichever server): Call is enabled again.
    void callFinished(const CallOutcome &outcome);
    // The call in flight will never be answered here (its server was removed).
    void callEnded();
    // The answer's App tab; the window shows an App there for `tool` of `server` (the last
    // call of a tool with an App), and the tab is there whenever that tool's answer is.
    AppPane *appPane() const;
    AppPane *appPaneIfAny() const; // null until an App was shown
    void showAppFor(const QString &server, const QString &tool);
    QString bannerText() const;
    QString resultText() const;
    // Writes the last answer whole (the views show at most TextDisplay::MaxShownChars).
    bool saveAnswer(const QString &path) const;
    // Appends the tool, the form's arguments and what the last answer showed to the
    // collection at `path` (CollectionWriter); `message` says what was written or why not.
    bool saveToCollection(const QString &path, QString *message) const;

public Q_SLOTS:
    void requestCall();
    // Forgets the shown tool's last answer (Close answer).
    void closeAnswer();
    void focusSearch();

Q_SIGNALS:
    void callRequested(const QString &tool, const QJsonObject &arguments);
    void cancelRequested();
    void overrideChanged(const QString &tool, std::optional<bool> readOnly);
    // The link to an MCP App tool's page: read that ui:// resource.
    void appResourceRequested(const QString &uri);
    // Show in transcript: the last tools/call of `tool` on the shown server.
    void transcriptRequested(const QString &tool);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setTools(const QJsonArray &tools, const QString &keep);
    void onCurrentChanged();
    void showAnswer();
    void showToolControls();
    void showBreaker();
    void showStepUp();
    // A modern (2026-07-28) HTTP connection: the form says which fields go as headers.
    void showHeaderHints();
    void updateCount();
    void fitListToNames();
    void chainTabOrder();
    void buildToolMenu();
    void showAppLink();
    void roomForDefinition();
    void roomForForm();
    void growArgumentArea(int wanted);

    ServerViewStore *m_store = nullptr;
    const ServerStore *m_servers = nullptr;
    const AuthStateStore *m_auth = nullptr;
    QString m_server;
    bool m_restoring = false; // the form is being set from the store, not typed in
    ToolListModel *m_model = nullptr;
    ToolFilterModel *m_proxy = nullptr;
    QCheckBox *m_appOnly = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_count = nullptr;
    QListView *m_list = nullptr;
    BreakerBanner *m_breaker = nullptr;
    QLabel *m_description = nullptr;
    QLabel *m_badges = nullptr;
    QLabel *m_appLink = nullptr;
    QComboBox *m_override = nullptr;
    SchemaFormWidget *m_form = nullptr;
    ToolDefinitionView *m_definition = nullptr;
    QMenu *m_toolMenu = nullptr;
    QAction *m_copyName = nullptr;
    QAction *m_copyDefinition = nullptr;
    QAction *m_callTool = nullptr;
    QAction *m_showInTranscript = nullptr;
    QPushButton *m_call = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_elapsed = nullptr;
    QLabel *m_streamNote = nullptr;
    QLabel *m_stepUpNote = nullptr;
    QPushButton *m_saveAnswer = nullptr;
    QPushButton *m_saveToCollection = nullptr;
    ToolAnswerView *m_answer = nullptr;
    QSplitter *m_answerSplit = nullptr; // the arguments above, the answer below
    QElapsedTimer m_clock;
    QTimer *m_tick = nullptr;
    QString m_callServer; // whose call runs (the window runs one at a time)
    QString m_appServer;  // whose tool's App the answer's App tab holds
    QString m_appTool;
    QJsonObject m_currentTool;
};

} // namespace Sonde

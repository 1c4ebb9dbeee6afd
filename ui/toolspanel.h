// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTimer;
class QVBoxLayout;

namespace Sonde {

class JsonView;
class SchemaFormWidget;
class ToolListModel;

// A server's tools: searchable list with annotation badges and the replay verdict (and its
// per-tool override), an argument form generated from inputSchema beside raw JSON, Call and
// Cancel, progress and elapsed time, and the answer: text, JSON, content blocks (images,
// audio with Save), structuredContent checked against outputSchema, and a banner for errors,
// "outcome uncertain" and breaker refusals. Thread: GUI. It asks; the window calls the core.
class ToolsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ToolsPanel(QWidget *parent = nullptr);
    void setTools(const QJsonArray &tools);
    bool selectTool(const QString &name);
    QString currentToolName() const;
    SchemaFormWidget *form() const { return m_form; }
    void callStarted();
    void showProgress(double progress, double total, const QString &message);
    void showOutcome(const CallOutcome &outcome);
    QString bannerText() const;
    QString resultText() const;
    // Writes the last answer whole (the views show at most TextDisplay::MaxShownChars).
    bool saveAnswer(const QString &path) const;

public Q_SLOTS:
    void requestCall();
    void focusSearch();

Q_SIGNALS:
    void callRequested(const QString &tool, const QJsonObject &arguments);
    void cancelRequested();
    void overrideChanged(const QString &tool, std::optional<bool> readOnly);

private:
    void onCurrentChanged();
    void showContent(const QJsonArray &content);

    ToolListModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_search = nullptr;
    QListView *m_list = nullptr;
    QLabel *m_description = nullptr;
    QLabel *m_badges = nullptr;
    QComboBox *m_override = nullptr;
    SchemaFormWidget *m_form = nullptr;
    QPushButton *m_call = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_elapsed = nullptr;
    QPushButton *m_saveAnswer = nullptr;
    QJsonObject m_lastAnswer;
    QLabel *m_banner = nullptr;
    QTabWidget *m_answerTabs = nullptr;
    QPlainTextEdit *m_text = nullptr;
    JsonView *m_json = nullptr;
    JsonView *m_structured = nullptr;
    QLabel *m_structuredVerdict = nullptr;
    QWidget *m_content = nullptr;
    QVBoxLayout *m_contentLayout = nullptr;
    QElapsedTimer m_clock;
    QTimer *m_tick = nullptr;
    QJsonObject m_currentTool;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "application/tools/recoverytext.h"

#include "values/callvalues.h"

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QVBoxLayout;

namespace Sonde {

class AppPane;
class JsonView;

// A tool's answer: a banner for errors, "outcome uncertain", breaker refusals and replays,
// then the text, the JSON, structuredContent checked against the tool's outputSchema, and the
// content blocks (images, audio with Save). Empty until it is given an outcome. Thread: GUI.
class ToolAnswerView : public QWidget
{
    Q_OBJECT
public:
    explicit ToolAnswerView(QWidget *parent = nullptr);
    // `tool` is the tool's entry from tools/list, for its outputSchema.
    // `reconnectNote`: what happened before the call, when nothing in the answer says it
    // (RecoveryText::reconnectBefore); `note`: a line more under it (the call needed a
    // step-up first).
    void showOutcome(const CallOutcome &outcome, const QJsonObject &tool,
                     const QString &reconnectNote = {}, const QString &note = {});
    void clear();
    // A problem found before anything was sent (arguments that do not fit the schema).
    void showProblem(const QString &text);
    void hideBanner();
    QString bannerText() const;
    QString resultText() const;
    // A long answer is laid out a screenful at first (a 256 Ki-character line costs the GUI
    // thread 100 ms and more to lay out); "Show more" shows what a view can.
    static constexpr qsizetype FirstScreenChars = 16 * 1024;
    bool showsFirstScreen() const;
    void showMore();
    bool hasAnswer() const { return !m_lastAnswer.isEmpty(); }
    // Where Tab enters the answer: its tab bar (Text, JSON, Structured, Content).
    QWidget *firstFocusWidget() const;
    // Writes the last answer whole (the views show at most TextDisplay::MaxShownChars).
    bool saveAnswer(const QString &path) const;
    // The App tab (an MCP App's view, its log): shown beside the others while this answer's
    // tool has the App the pane holds; `select` brings it to the front.
    // Made the first time it is asked for: a window that never shows an App never builds it.
    AppPane *appPane();
    AppPane *appPaneIfAny() const { return m_app; }
Q_SIGNALS:
    // Close answer (beside the answer's tabs): the panel forgets the tool's last answer.
    void closeRequested();

public:
    void setAppShown(bool shown, bool select = false);
    bool appShown() const;

private:
    void showBanner(const CallOutcome &o, const QString &reconnectNote, const QString &note);
    QString bannerStyle(RecoveryText::Banner::Tone tone) const;
    // `shown`: the blocks as the views show them (long strings cut); `whole`: as they came,
    // for what must be whole to be shown at all (an image, audio).
    void showContent(const QJsonArray &shown, const QJsonArray &whole);
    // The Text and JSON tabs, a screenful or all a view shows, and the bar about it.
    void showTexts();
    // The tab the user chose last when this answer has something in it, else the first that
    // has: a tool without structuredContent does not open on an empty Structured pane.
    void showFittingTab(bool structured, bool content);

    QLabel *m_banner = nullptr;
    QLabel *m_more = nullptr;
    QPushButton *m_close = nullptr;
    QTabWidget *m_answerTabs = nullptr;
    QPlainTextEdit *m_text = nullptr;
    JsonView *m_json = nullptr;
    // What Save answer writes: the whole answer, of which the views show at most a part.
    QJsonObject m_lastAnswer;
    // What the Text and JSON tabs show of it, kept to show more on demand.
    QString m_shownText;
    QByteArray m_shownJson;
    QByteArray m_shownStructured; // empty without structuredContent
    qsizetype m_answerBytes = 0;  // the frame, when the views show it cut (AnswerPreview)
    bool m_expanded = false;
    JsonView *m_structured = nullptr;
    QLabel *m_structuredVerdict = nullptr;
    QWidget *m_content = nullptr;
    QVBoxLayout *m_contentLayout = nullptr;
    AppPane *m_app = nullptr;
    int m_chosenTab = 0;        // the user's, kept while answers without it come and go
    bool m_choosingTab = false; // the view switches, not the user
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QVBoxLayout;

namespace Sonde {

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
    // `note`: a line more for the banner (the call needed a step-up first).
    void showOutcome(const CallOutcome &outcome, const QJsonObject &tool, const QString &note = {});
    void clear();
    // A problem found before anything was sent (arguments that do not fit the schema).
    void showProblem(const QString &text);
    void hideBanner();
    QString bannerText() const;
    QString resultText() const;
    bool hasAnswer() const { return !m_lastAnswer.isEmpty(); }
    // Where Tab enters the answer: its tab bar (Text, JSON, Structured, Content).
    QWidget *firstFocusWidget() const;
    // Writes the last answer whole (the views show at most TextDisplay::MaxShownChars).
    bool saveAnswer(const QString &path) const;

private:
    void showBanner(const CallOutcome &o, const QString &note);
    void showContent(const QJsonArray &content);

    QLabel *m_banner = nullptr;
    QTabWidget *m_answerTabs = nullptr;
    QPlainTextEdit *m_text = nullptr;
    JsonView *m_json = nullptr;
    // What Save answer writes: the whole answer, of which the views show at most a part.
    QJsonObject m_lastAnswer;
    JsonView *m_structured = nullptr;
    QLabel *m_structuredVerdict = nullptr;
    QWidget *m_content = nullptr;
    QVBoxLayout *m_contentLayout = nullptr;
};

} // namespace Sonde

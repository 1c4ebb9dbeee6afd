// SPDX-License-Identifier: MIT
#include "tools/toolanswerview.h"

#include "application/tools/answerpreview.h"
#include "application/tools/recoverytext.h"
#include "apps/apppane.h"
#include "protocol/mcp.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
constexpr int AppTab = 4; // after Text, JSON, Structured, Content
} // namespace

ToolAnswerView::ToolAnswerView(QWidget *parent) : QWidget(parent)
{
    m_banner = new QLabel(this);
    m_banner->setObjectName(u"banner"_s);
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();

    m_more = new QLabel(this);
    m_more->setObjectName(u"answerMore"_s);
    m_more->setWordWrap(true);
    m_more->setTextFormat(Qt::RichText);
    m_more->hide();
    connect(m_more, &QLabel::linkActivated, this, [this] { showMore(); });

    m_answerTabs = new QTabWidget(this);
    m_answerTabs->setObjectName(u"answerTabs"_s);
    m_answerTabs->tabBar()->setObjectName(u"answerTabBar"_s);
    m_answerTabs->setAccessibleName(tr("Answer"));
    m_answerTabs->tabBar()->setAccessibleName(tr("Answer views"));
    m_text = new QPlainTextEdit(m_answerTabs);
    m_text->setObjectName(u"resultText"_s);
    m_text->setAccessibleName(tr("Answer text"));
    m_text->setReadOnly(true);
    m_json = new JsonView(m_answerTabs);
    m_json->setObjectName(u"resultJson"_s);
    m_json->setAccessibleName(tr("Answer JSON"));
    auto *structuredPage = new QWidget(m_answerTabs);
    auto *structuredLayout = new QVBoxLayout(structuredPage);
    m_structuredVerdict = new QLabel(structuredPage);
    m_structuredVerdict->setObjectName(u"structuredVerdict"_s);
    m_structured = new JsonView(structuredPage);
    m_structured->setAccessibleName(tr("Structured content"));
    structuredLayout->addWidget(m_structuredVerdict);
    structuredLayout->addWidget(m_structured, 1);
    auto *scroll = new QScrollArea(m_answerTabs);
    m_content = new QWidget(scroll);
    m_contentLayout = new QVBoxLayout(m_content);
    m_contentLayout->addStretch();
    scroll->setWidget(m_content);
    scroll->setWidgetResizable(true);
    m_answerTabs->addTab(m_text, tr("Text"));
    m_answerTabs->addTab(m_json, tr("JSON"));
    m_answerTabs->addTab(structuredPage, tr("Structured"));
    m_answerTabs->addTab(scroll, tr("Content"));
    // The window keeps each tool's last answer to show it again; this lets one go, and the
    // memory a 20 MiB answer held with it (the transcript keeps its frame).
    m_close = new QPushButton(tr("Close answer"), m_answerTabs);
    m_close->setObjectName(u"closeAnswer"_s);
    m_close->setFlat(true);
    m_close->setEnabled(false);
    m_close->setAccessibleName(tr("Close answer"));
    m_close->setToolTip(tr("Forget this tool's last answer (the transcript keeps it)"));
    m_answerTabs->setCornerWidget(m_close, Qt::TopRightCorner);
    connect(m_close, &QPushButton::clicked, this, &ToolAnswerView::closeRequested);
    connect(m_answerTabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (!m_choosingTab)
            m_chosenTab = index;
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_more);
    layout->addWidget(m_answerTabs, 1);
}

QWidget *ToolAnswerView::firstFocusWidget() const
{
    return m_answerTabs->tabBar();
}

void ToolAnswerView::showOutcome(const CallOutcome &o, const QJsonObject &tool,
                                 const QString &reconnectNote, const QString &note)
{
    // A big answer is shown from a copy of its frame with the long strings cut: the whole
    // one is only serialized or widened when it is saved.
    const std::optional<AnswerPreview> preview = AnswerPreview::of(o);
    const QJsonObject whole = o.result.toObject();
    const QJsonObject result = preview ? preview->result.toObject() : whole;
    QJsonObject shown = o.toJson();
    m_lastAnswer = shown;
    if (preview)
        shown.insert("result"_L1, preview->result);
    m_answerBytes = preview ? preview->frameBytes : 0;
    m_shownJson = QJsonDocument(shown).toJson();
    m_shownText = o.ok() || o.error.kind() == Error::Kind::Application
                      ? Mcp::toolAnswer(result).value(o.ok() ? "result"_L1 : "error"_L1).toString()
                      : o.error.message();
    const QJsonValue structured = result.value("structuredContent"_L1);
    m_shownStructured =
        structured.isObject() ? QJsonDocument(structured.toObject()).toJson() : QByteArray();
    m_expanded = false;
    showTexts();
    showBanner(o, reconnectNote, note);
    m_close->setEnabled(true);

    const QJsonObject outputSchema = tool.value("outputSchema"_L1).toObject();
    if (structured.isObject()) {
        QString why;
        if (outputSchema.isEmpty())
            m_structuredVerdict->setText(tr("No outputSchema to check against"));
        // Checked whole, not as shown: a cut string is no evidence about maxLength.
        else if (Mcp::validateAgainstSchema(whole.value("structuredContent"_L1), outputSchema,
                                            &why))
            m_structuredVerdict->setText(tr("✔ valid against outputSchema"));
        else
            m_structuredVerdict->setText(tr("✘ invalid against outputSchema: %1").arg(why));
    } else {
        m_structuredVerdict->setText(outputSchema.isEmpty()
                                         ? QString()
                                         : tr("✘ outputSchema declared but no structuredContent"));
    }
    const QJsonArray content = result.value("content"_L1).toArray();
    showContent(content, whole.value("content"_L1).toArray());
    showFittingTab(structured.isObject() || !m_structuredVerdict->text().isEmpty(),
                   !content.isEmpty());
}

void ToolAnswerView::showTexts()
{
    const qsizetype most = m_expanded ? TextDisplay::MaxShownChars : FirstScreenChars;
    QString rest = m_expanded ? tr("in Save answer…") : tr("under Show more, and in Save answer…");
    if (m_answerBytes > 0) // the view's text is itself cut: say what the whole is
        rest += tr(" (the whole answer is %1)").arg(QLocale().formattedDataSize(m_answerBytes, 1));
    TextDisplay::show(m_text, m_shownText, rest, most);
    m_json->setJson(m_shownJson, rest, most);
    m_structured->setJson(m_shownStructured, rest, most);
    QStringList says;
    if (m_answerBytes > 0)
        says << tr("This answer is %1: strings longer than %2 are cut here (…).")
                    .arg(QLocale().formattedDataSize(m_answerBytes, 1),
                         QLocale().formattedDataSize(AnswerPreview::CutStringBytes, 1));
    if (showsFirstScreen())
        says << tr("The views show its first %1 characters: <a href=\"more\">Show more</a>.")
                    .arg(QLocale().toString(FirstScreenChars));
    if (!says.isEmpty())
        says << tr("Save answer… writes all of it.");
    m_more->setText(says.join(u' '));
    m_more->setVisible(!says.isEmpty());
}

bool ToolAnswerView::showsFirstScreen() const
{
    return !m_expanded &&
           (m_shownText.size() > FirstScreenChars || m_shownJson.size() > FirstScreenChars ||
            m_shownStructured.size() > FirstScreenChars);
}

void ToolAnswerView::showMore()
{
    if (m_expanded)
        return;
    m_expanded = true;
    showTexts();
}

void ToolAnswerView::showFittingTab(bool structured, bool content)
{
    enum Tab
    {
        Text,
        Json,
        Structured,
        Content
    };
    const bool text = !m_text->document()->isEmpty();
    const auto has = [&](int tab) {
        return tab == Text         ? text
               : tab == Json       ? true
               : tab == Structured ? structured
               : tab == AppTab     ? appShown()
                                   : content;
    };
    const int tab = has(m_chosenTab) ? m_chosenTab : text ? int(Text) : int(Json);
    m_choosingTab = true;
    m_answerTabs->setCurrentIndex(tab);
    m_choosingTab = false;
}

AppPane *ToolAnswerView::appPane()
{
    if (!m_app) {
        // No QtWebEngine until an App is shown (the pane loads it then).
        m_app = new AppPane(m_answerTabs);
        m_app->setObjectName(u"appPane"_s);
        m_answerTabs->addTab(m_app, tr("App"));
        m_answerTabs->setTabVisible(AppTab, false);
    }
    return m_app;
}

void ToolAnswerView::setAppShown(bool shown, bool select)
{
    if (!m_app && !shown)
        return;
    appPane();
    // Hiding the current tab makes Qt pick a neighbour (Content, often empty): the view
    // chooses instead, and neither is taken for the user's choice.
    const bool wasCurrent = m_answerTabs->currentIndex() == AppTab;
    m_choosingTab = true;
    m_answerTabs->setTabVisible(AppTab, shown);
    if (shown && select) {
        m_answerTabs->setCurrentIndex(AppTab);
        m_chosenTab = AppTab;
    } else if (!shown && wasCurrent) {
        m_answerTabs->setCurrentIndex(m_text->document()->isEmpty() ? 1 : 0);
    }
    m_choosingTab = false;
}

bool ToolAnswerView::appShown() const
{
    return m_app && m_answerTabs->isTabVisible(AppTab);
}

// The banner's words are RecoveryText's; its colours follow the palette, so a dark window
// does not get light boxes.
QString ToolAnswerView::bannerStyle(RecoveryText::Banner::Tone tone) const
{
    using Tone = RecoveryText::Banner::Tone;
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    struct Colours
    {
        const char *light[3]; // background, text, border
        const char *dark[3];
    };
    static const Colours good{{"#e8f5e9", "#1b5e20", "#66bb6a"}, {"#1b3320", "#a5d6a7", "#2e7d32"}};
    static const Colours uncertain{{"#fff8e1", "#8d6e00", "#ffb300"},
                                   {"#3a3000", "#ffe082", "#ffb300"}};
    static const Colours refused{{"#ffebee", "#b71c1c", "#e53935"},
                                 {"#3b1518", "#ef9a9a", "#e53935"}};
    static const Colours error{{"#fbe9e7", "#bf360c", "#ff7043"},
                               {"#3a1d14", "#ffab91", "#bf360c"}};
    const Colours &c = tone == Tone::Good        ? good
                       : tone == Tone::Uncertain ? uncertain
                       : tone == Tone::Refused   ? refused
                                                 : error;
    const char *const *p = dark ? c.dark : c.light;
    return u"background:%1; color:%2; border:1px solid %3; padding:6px"_s.arg(
        QLatin1StringView(p[0]), QLatin1StringView(p[1]), QLatin1StringView(p[2]));
}

void ToolAnswerView::showBanner(const CallOutcome &o, const QString &reconnectNote,
                                const QString &note)
{
    RecoveryText::Banner b = RecoveryText::forAnswer(o, reconnectNote);
    // A line of its own under whatever else is said: the answer came, but only after the
    // user signed in again.
    if (!note.isEmpty()) {
        b.text = b.text.isEmpty() ? note : b.text + u'\n' + note;
        if (b.tone == RecoveryText::Banner::Tone::None)
            b.tone = RecoveryText::Banner::Tone::Good;
    }
    m_banner->setText(b.text);
    m_banner->setToolTip(b.toolTip);
    m_banner->setStyleSheet(b.tone == RecoveryText::Banner::Tone::None ? QString()
                                                                       : bannerStyle(b.tone));
    m_banner->setVisible(!b.text.isEmpty());
}

void ToolAnswerView::clear()
{
    m_lastAnswer = {};
    m_shownText.clear();
    m_shownJson.clear();
    m_shownStructured.clear();
    m_answerBytes = 0;
    m_expanded = false;
    m_more->hide();
    m_close->setEnabled(false);
    hideBanner();
    m_text->clear();
    m_json->setJson({});
    m_structured->setJson({});
    m_structuredVerdict->clear();
    showContent({}, {});
}

void ToolAnswerView::showProblem(const QString &text)
{
    m_banner->setText(text);
    m_banner->setToolTip(QString());
    m_banner->setStyleSheet(bannerStyle(RecoveryText::Banner::Tone::Error));
    m_banner->show();
}

void ToolAnswerView::hideBanner()
{
    m_banner->hide();
}

QString ToolAnswerView::bannerText() const
{
    return m_banner->isVisible() ? m_banner->text() : QString();
}

QString ToolAnswerView::resultText() const
{
    return m_text->toPlainText();
}

bool ToolAnswerView::saveAnswer(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(QJsonDocument(m_lastAnswer).toJson(QJsonDocument::Indented));
    return f.commit();
}

void ToolAnswerView::showContent(const QJsonArray &content, const QJsonArray &whole)
{
    while (m_contentLayout->count() > 1) {
        QLayoutItem *item = m_contentLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (qsizetype i = 0; i < content.size(); ++i) {
        const QString type = content.at(i).toObject().value("type"_L1).toString();
        const bool media = type == "image"_L1 || type == "audio"_L1;
        const QJsonObject block = (media ? whole : content).at(i).toObject();
        auto *row = new QWidget(m_content);
        auto *layout = new QHBoxLayout(row);
        auto *label = new QLabel(row);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
        layout->addWidget(label, 1);
        if (type == "image"_L1 || type == "audio"_L1) {
            const QByteArray bytes =
                QByteArray::fromBase64(block.value("data"_L1).toString().toLatin1());
            const QString mime = block.value("mimeType"_L1).toString();
            if (type == "image"_L1) {
                QPixmap pixmap;
                pixmap.loadFromData(bytes);
                if (!pixmap.isNull())
                    label->setPixmap(pixmap.width() < 16 ? pixmap.scaled(32, 32) : pixmap);
                else
                    label->setText(
                        tr("image (%1, %2 bytes, not decodable)").arg(mime).arg(bytes.size()));
            } else {
                label->setText(tr("audio (%1, %2 bytes)").arg(mime).arg(bytes.size()));
            }
            auto *save = new QPushButton(tr("Save…"), row);
            save->setAccessibleName(tr("Save %1").arg(mime));
            save->setToolTip(tr("Write this %1 content to a file").arg(mime));
            connect(save, &QPushButton::clicked, this, [this, bytes, mime] {
                // open(), not a static getter: no nested event loop while it is up.
                auto *dialog = new QFileDialog(this, tr("Save content"), QString(), mime);
                dialog->setAcceptMode(QFileDialog::AcceptSave);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                connect(dialog, &QFileDialog::fileSelected, this, [bytes](const QString &path) {
                    QSaveFile f(path);
                    if (f.open(QIODevice::WriteOnly)) {
                        f.write(bytes);
                        f.commit();
                    }
                });
                dialog->open();
            });
            layout->addWidget(save);
        } else if (type == "resource_link"_L1) {
            label->setText(
                tr("link: %1 (%2)")
                    .arg(block.value("uri"_L1).toString(), block.value("name"_L1).toString()));
        } else if (type == "resource"_L1) {
            const QJsonObject r = block.value("resource"_L1).toObject();
            label->setText(
                tr("embedded resource %1:\n%2")
                    .arg(r.value("uri"_L1).toString(), r.value("text"_L1).toString().left(2000)));
        } else {
            label->setText(block.value("text"_L1).toString().left(20000));
        }
        m_contentLayout->insertWidget(m_contentLayout->count() - 1, row);
    }
}

} // namespace Sonde

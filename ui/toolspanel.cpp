// SPDX-License-Identifier: MIT
#include "toolspanel.h"

#include "jsonview.h"
#include "protocol/mcp.h"
#include "schemaformwidget.h"
#include "textdisplay.h"
#include "toollistmodel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

ToolsPanel::ToolsPanel(QWidget *parent) : QWidget(parent)
{
    auto *split = new QSplitter(this);
    split->setObjectName(u"toolsSplitter"_s);
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);

    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    m_search = new QLineEdit(left);
    m_search->setObjectName(u"toolSearch"_s);
    m_search->setPlaceholderText(tr("Search tools (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_model = new ToolListModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_list = new QListView(left);
    m_list->setObjectName(u"toolList"_s);
    m_list->setModel(m_proxy);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_list, 1);
    connect(m_search, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ToolsPanel::onCurrentChanged);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    m_description = new QLabel(right);
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_badges = new QLabel(right);
    m_badges->setObjectName(u"toolBadges"_s);
    m_override = new QComboBox(right);
    m_override->setObjectName(u"toolOverride"_s);
    m_override->addItems({tr("Replay after a lost session: as the server says"),
                          tr("Treat as read-only (replay)"),
                          tr("Treat as write-capable (never replay)")});
    connect(m_override, &QComboBox::activated, this, [this](int i) {
        const QString name = currentToolName();
        if (name.isEmpty())
            return;
        const std::optional<bool> choice = i == 1   ? std::optional<bool>(true)
                                           : i == 2 ? std::optional<bool>(false)
                                                    : std::nullopt;
        m_model->setOverride(name, choice);
        onCurrentChanged();
        Q_EMIT overrideChanged(name, choice);
    });
    m_form = new SchemaFormWidget(right);
    m_form->setObjectName(u"argumentsForm"_s);
    auto *buttons = new QHBoxLayout;
    m_call = new QPushButton(tr("Call"), right);
    m_call->setObjectName(u"callButton"_s);
    m_call->setToolTip(tr("Call the tool (Ctrl+Return)"));
    m_cancel = new QPushButton(tr("Cancel"), right);
    m_cancel->setObjectName(u"cancelButton"_s);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(right);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_elapsed = new QLabel(right);
    m_elapsed->setObjectName(u"elapsedLabel"_s);
    buttons->addWidget(m_call);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_elapsed);
    // The whole answer, whatever the views could show of it.
    m_saveAnswer = new QPushButton(tr("Save answer…"), this);
    m_saveAnswer->setObjectName(u"saveAnswer"_s);
    m_saveAnswer->setEnabled(false);
    buttons->addWidget(m_saveAnswer);
    connect(m_saveAnswer, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save answer"), QString(), tr("JSON (*.json)"));
        if (!path.isEmpty() && !saveAnswer(path))
            QMessageBox::warning(this, tr("Save answer"), tr("Could not write %1.").arg(path));
    });
    connect(m_call, &QPushButton::clicked, this, &ToolsPanel::requestCall);
    connect(m_cancel, &QPushButton::clicked, this, &ToolsPanel::cancelRequested);

    m_banner = new QLabel(right);
    m_banner->setObjectName(u"banner"_s);
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();

    m_answerTabs = new QTabWidget(right);
    m_text = new QPlainTextEdit(m_answerTabs);
    m_text->setObjectName(u"resultText"_s);
    m_text->setReadOnly(true);
    m_json = new JsonView(m_answerTabs);
    m_json->setObjectName(u"resultJson"_s);
    auto *structuredPage = new QWidget(m_answerTabs);
    auto *structuredLayout = new QVBoxLayout(structuredPage);
    m_structuredVerdict = new QLabel(structuredPage);
    m_structuredVerdict->setObjectName(u"structuredVerdict"_s);
    m_structured = new JsonView(structuredPage);
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

    auto *vsplit = new QSplitter(Qt::Vertical, right);
    auto *top = new QWidget(vsplit);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_description);
    topLayout->addWidget(m_badges);
    topLayout->addWidget(m_override);
    topLayout->addWidget(m_form, 1);
    topLayout->addLayout(buttons);
    auto *bottom = new QWidget(vsplit);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_banner);
    bottomLayout->addWidget(m_answerTabs, 1);
    rightLayout->addWidget(vsplit);
    split->setStretchFactor(1, 3);

    m_tick = new QTimer(this);
    m_tick->setInterval(100);
    connect(m_tick, &QTimer::timeout, this, [this] {
        m_elapsed->setText(tr("%1 s").arg(double(m_clock.elapsed()) / 1000.0, 0, 'f', 1));
    });
}

void ToolsPanel::setTools(const QJsonArray &tools)
{
    const QString keep = currentToolName();
    m_model->setTools(tools);
    if (!selectTool(keep) && m_proxy->rowCount() > 0)
        m_list->setCurrentIndex(m_proxy->index(0, 0));
}

bool ToolsPanel::selectTool(const QString &name)
{
    for (int i = 0; i < m_proxy->rowCount(); ++i) {
        const QModelIndex idx = m_proxy->index(i, 0);
        if (idx.data(ToolListModel::NameRole).toString() == name) {
            m_list->setCurrentIndex(idx);
            return true;
        }
    }
    return false;
}

QString ToolsPanel::currentToolName() const
{
    return m_currentTool.value("name"_L1).toString();
}

void ToolsPanel::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

void ToolsPanel::onCurrentChanged()
{
    const QModelIndex idx = m_list->currentIndex();
    const QJsonObject tool = idx.data(ToolListModel::ToolRole).toJsonObject();
    const bool changed = tool.value("name"_L1) != m_currentTool.value("name"_L1);
    m_currentTool = tool;
    m_description->setText(
        u"<b>%1</b><br>%2"_s.arg(tool.value("name"_L1).toString().toHtmlEscaped(),
                                 tool.value("description"_L1).toString().toHtmlEscaped()));
    const bool replay = idx.data(ToolListModel::VerdictRole).toBool();
    m_badges->setText(u"%1 · after a lost session: %2 (%3)"_s.arg(
        idx.data(ToolListModel::BadgesRole).toStringList().join(u" · "_s),
        replay ? tr("sent again") : tr("outcome uncertain, never replayed"),
        idx.data(ToolListModel::VerdictSourceRole).toString()));
    if (changed)
        m_form->setSchema(tool.value("inputSchema"_L1).toObject());
}

void ToolsPanel::requestCall()
{
    const QString name = currentToolName();
    if (name.isEmpty() || !m_call->isEnabled())
        return;
    QString why;
    if (!m_form->isValid(&why)) {
        m_banner->setText(tr("Arguments are not valid: %1").arg(why));
        m_banner->setStyleSheet(u"background:#fff3e0; color:#e65100; padding:6px"_s);
        m_banner->show();
        return;
    }
    Q_EMIT callRequested(name, m_form->value());
}

void ToolsPanel::callStarted()
{
    m_call->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0); // busy until the first progress notification
    m_banner->hide();
    m_clock.start();
    m_tick->start();
}

void ToolsPanel::showProgress(double progress, double total, const QString &message)
{
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(1000.0 * progress / total));
    }
    m_progress->setFormat(message.isEmpty() ? u"%p%"_s : message);
}

QString ToolsPanel::bannerText() const
{
    return m_banner->isVisible() ? m_banner->text() : QString();
}

QString ToolsPanel::resultText() const
{
    return m_text->toPlainText();
}

bool ToolsPanel::saveAnswer(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(QJsonDocument(m_lastAnswer).toJson(QJsonDocument::Indented));
    return f.commit();
}

void ToolsPanel::showOutcome(const CallOutcome &o)
{
    m_tick->stop();
    m_elapsed->setText(tr("%1 ms").arg(o.finishedMs - o.startedMs));
    m_call->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(o.ok() ? 1000 : 0);
    m_progress->setFormat(u"%p%"_s);
    const QJsonObject result = o.result.toObject();
    QJsonObject shown = o.toJson();
    m_lastAnswer = shown;
    m_saveAnswer->setEnabled(true);
    const QString rest = tr("in Save answer…");
    m_json->setJson(QJsonDocument(shown).toJson(), rest);
    TextDisplay::show(
        m_text,
        o.ok() || o.error.kind() == Error::Kind::Application
            ? Mcp::toolAnswer(result).value(o.ok() ? "result"_L1 : "error"_L1).toString()
            : o.error.message(),
        rest);
    QString banner, style;
    if (o.recovery && o.recovery->outcomeUncertain.value_or(false)) {
        banner = tr("Outcome uncertain — %1").arg(o.error.message());
        style = u"background:#fff8e1; color:#8d6e00; border:1px solid #ffb300; padding:6px"_s;
    } else if (o.error.kind() == Error::Kind::Refused) {
        banner = tr("Not sent — %1").arg(o.error.message());
        style = u"background:#ffebee; color:#b71c1c; border:1px solid #e53935; padding:6px"_s;
    } else if (o.error.kind() == Error::Kind::Application) {
        banner = tr("The tool reported an error (isError)");
        style = u"background:#fbe9e7; color:#bf360c; padding:6px"_s;
    } else if (!o.ok()) {
        banner = tr("%1 error — %2").arg(Error::kindName(o.error.kind()), o.error.message());
        style = u"background:#ffebee; color:#b71c1c; padding:6px"_s;
    } else if (o.recovery && o.recovery->replayed) {
        banner = tr("Answered after a reconnect (sent again on generation %1: %2)")
                     .arg(o.generation)
                     .arg(o.recovery->rule);
        style = u"background:#e8f5e9; color:#1b5e20; padding:6px"_s;
    }
    m_banner->setText(banner);
    m_banner->setStyleSheet(style);
    m_banner->setVisible(!banner.isEmpty());

    const QJsonValue structured = result.value("structuredContent"_L1);
    const QJsonObject outputSchema = m_currentTool.value("outputSchema"_L1).toObject();
    if (structured.isObject()) {
        m_structured->setJson(QJsonDocument(structured.toObject()).toJson(), rest);
        QString why;
        if (outputSchema.isEmpty())
            m_structuredVerdict->setText(tr("No outputSchema to check against"));
        else if (Mcp::validateAgainstSchema(structured, outputSchema, &why))
            m_structuredVerdict->setText(tr("✔ valid against outputSchema"));
        else
            m_structuredVerdict->setText(tr("✘ invalid against outputSchema: %1").arg(why));
    } else {
        m_structured->setJson({});
        m_structuredVerdict->setText(outputSchema.isEmpty()
                                         ? QString()
                                         : tr("✘ outputSchema declared but no structuredContent"));
    }
    showContent(result.value("content"_L1).toArray());
}

void ToolsPanel::showContent(const QJsonArray &content)
{
    while (m_contentLayout->count() > 1) {
        QLayoutItem *item = m_contentLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
    for (const QJsonValue &v : content) {
        const QJsonObject block = v.toObject();
        const QString type = block.value("type"_L1).toString();
        auto *row = new QWidget(m_content);
        auto *layout = new QHBoxLayout(row);
        auto *label = new QLabel(row);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
        layout->addWidget(label, 1);
        if (type == "image"_L1 || type == "audio"_L1) {
            const QByteArray data =
                QByteArray::fromBase64(block.value("data"_L1).toString().toLatin1());
            const QString mime = block.value("mimeType"_L1).toString();
            if (type == "image"_L1) {
                QPixmap pixmap;
                pixmap.loadFromData(data);
                if (!pixmap.isNull())
                    label->setPixmap(pixmap.width() < 16 ? pixmap.scaled(32, 32) : pixmap);
                else
                    label->setText(
                        tr("image (%1, %2 bytes, not decodable)").arg(mime).arg(data.size()));
            } else {
                label->setText(tr("audio (%1, %2 bytes)").arg(mime).arg(data.size()));
            }
            auto *save = new QPushButton(tr("Save…"), row);
            connect(save, &QPushButton::clicked, this, [this, data, mime] {
                const QString path =
                    QFileDialog::getSaveFileName(this, tr("Save content"), QString(), mime);
                QSaveFile f(path);
                if (!path.isEmpty() && f.open(QIODevice::WriteOnly)) {
                    f.write(data);
                    f.commit();
                }
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

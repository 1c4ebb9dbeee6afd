// SPDX-License-Identifier: MIT
#include "toolspanel.h"

#include "schemaformwidget.h"
#include "serverviewstore.h"
#include "toolanswerview.h"
#include "toollistmodel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

ToolsPanel::ToolsPanel(ServerViewStore *store, QWidget *parent) : QWidget(parent), m_store(store)
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
        m_store->setToolOverride(m_server, name, choice);
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

    m_answer = new ToolAnswerView(right);

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
    bottomLayout->addWidget(m_answer, 1);
    rightLayout->addWidget(vsplit);
    split->setStretchFactor(1, 3);

    m_tick = new QTimer(this);
    m_tick->setInterval(100);
    connect(m_tick, &QTimer::timeout, this, [this] {
        m_elapsed->setText(tr("%1 s").arg(double(m_clock.elapsed()) / 1000.0, 0, 'f', 1));
    });

    connect(m_form, &SchemaFormWidget::valueChanged, this, [this] {
        if (!m_restoring && !m_server.isEmpty() && !currentToolName().isEmpty())
            m_store->setFormValues(m_server, currentToolName(), m_form->value());
    });
    connect(m_store, &ServerViewStore::toolsChanged, this, [this](const QString &server) {
        if (server == m_server)
            setTools(m_store->tools(server), currentToolName());
    });
    connect(m_store, &ServerViewStore::toolAnswerChanged, this,
            [this](const QString &server, const QString &tool) {
                if (server == m_server && tool == currentToolName())
                    showAnswer();
            });
}

void ToolsPanel::showServer(const QString &server)
{
    // Read before the list changes: the change itself writes the selection back.
    const QString selected = m_store->selectedTool(server);
    m_server = server;
    m_currentTool = {};
    setTools(m_store->tools(server), selected);
    if (m_currentTool.isEmpty()) {
        m_description->clear();
        m_badges->clear();
        m_form->setSchema({});
        showAnswer();
    }
}

void ToolsPanel::setTools(const QJsonArray &tools, const QString &keep)
{
    m_model->setOverrides(m_store->toolOverrides(m_server));
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
    if (!changed)
        return;
    m_store->setSelectedTool(m_server, currentToolName());
    const QHash<QString, bool> overrides = m_store->toolOverrides(m_server);
    const auto override = overrides.constFind(currentToolName());
    m_override->setCurrentIndex(override == overrides.cend() ? 0 : *override ? 1 : 2);
    m_restoring = true;
    m_form->setSchema(tool.value("inputSchema"_L1).toObject());
    if (const auto values = m_store->formValues(m_server, currentToolName()))
        m_form->setValue(*values);
    m_restoring = false;
    showAnswer();
}

void ToolsPanel::showAnswer()
{
    const std::optional<CallOutcome> outcome = m_store->toolAnswer(m_server, currentToolName());
    if (outcome)
        m_answer->showOutcome(*outcome, m_currentTool);
    else
        m_answer->clear();
    m_saveAnswer->setEnabled(m_answer->hasAnswer());
    if (m_call->isEnabled()) { // no call running: the time and the bar are this answer's
        m_elapsed->setText(outcome ? tr("%1 ms").arg(outcome->finishedMs - outcome->startedMs)
                                   : QString());
        m_progress->setValue(outcome && outcome->ok() ? 1000 : 0);
    }
}

void ToolsPanel::requestCall()
{
    const QString name = currentToolName();
    if (name.isEmpty() || !m_call->isEnabled())
        return;
    QString why;
    if (!m_form->isValid(&why)) {
        m_answer->showProblem(tr("Arguments are not valid: %1").arg(why));
        return;
    }
    Q_EMIT callRequested(name, m_form->value());
}

void ToolsPanel::callStarted()
{
    m_call->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0); // busy until the first progress notification
    m_answer->hideBanner();
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
    return m_answer->bannerText();
}

QString ToolsPanel::resultText() const
{
    return m_answer->resultText();
}

bool ToolsPanel::saveAnswer(const QString &path) const
{
    return m_answer->saveAnswer(path);
}

void ToolsPanel::callFinished(const CallOutcome &o)
{
    callEnded();
    m_elapsed->setText(tr("%1 ms").arg(o.finishedMs - o.startedMs));
    m_progress->setValue(o.ok() ? 1000 : 0);
}

void ToolsPanel::callEnded()
{
    m_tick->stop();
    m_call->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(u"%p%"_s);
}

} // namespace Sonde

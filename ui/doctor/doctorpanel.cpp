// SPDX-License-Identifier: MIT
#include "doctor/doctorpanel.h"

#include "application/doctor/doctorfindingmodel.h"
#include "application/doctor/doctorfindingstore.h"
#include "window/jsonview.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString doctorSeverityText(DoctorSeverity severity)
{
    switch (severity) {
    case DoctorSeverity::Error:
        return DoctorPanel::tr("Error");
    case DoctorSeverity::Warning:
        return DoctorPanel::tr("Warning");
    case DoctorSeverity::Info:
        return DoctorPanel::tr("Information");
    }
    return {};
}

// The checks a run skipped, with why, for the run line's tooltip: enough to see what was not
// checked without a wall of text.
QString doctorSkippedText(const DoctorReport &report)
{
    constexpr int Shown = 12;
    QStringList lines;
    for (auto it = report.skipped.cbegin(); it != report.skipped.cend(); ++it) {
        if (lines.size() == Shown) {
            lines << DoctorPanel::tr("…and %n more", nullptr, int(report.skipped.size()) - Shown);
            break;
        }
        lines << u"%1: %2"_s.arg(it.key(), it.value());
    }
    return lines.isEmpty() ? QString() : DoctorPanel::tr("Skipped:") + u'\n' + lines.join(u'\n');
}

} // namespace

DoctorPanel::DoctorPanel(const DoctorFindingStore *store, QWidget *parent)
    : QWidget(parent), m_store(store), m_model(new DoctorFindingModel(store, this))
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(u"doctorRun"_s);
    m_run->setAccessibleName(tr("Run the doctor"));
    m_run->setToolTip(tr("Probe the server on a session of its own, as sonde-cli doctor does: "
                         "ping, lists, read-only tools, the transport's rules"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(u"doctorStop"_s);
    m_stop->setAccessibleName(tr("Stop the doctor"));
    m_stop->setToolTip(tr("End the run now, with what it found so far"));
    m_writes = new QCheckBox(tr("Also call tools not marked read-only"), this);
    m_writes->setObjectName(u"doctorAllowWrites"_s);
    m_writes->setToolTip(tr("Each such tool is called once, with arguments built from its "
                            "schema: only for a server whose tools may be run"));
    m_runState = new QLabel(this);
    m_runState->setObjectName(u"doctorRunState"_s);
    m_runState->setAccessibleName(tr("Doctor run"));
    m_runState->setWordWrap(true);
    m_runState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_run);
    bar->addWidget(m_stop);
    bar->addWidget(m_writes);
    bar->addWidget(m_runState, 1);
    layout->addLayout(bar);
    connect(m_run, &QPushButton::clicked, this,
            [this] { Q_EMIT runRequested(m_writes->isChecked()); });
    connect(m_stop, &QPushButton::clicked, this, &DoctorPanel::stopRequested);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(u"doctorSplitter"_s);
    m_tree = new QTreeView(split);
    m_tree->setObjectName(u"doctorFindings"_s);
    m_tree->setAccessibleName(tr("Doctor findings"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setExpandsOnDoubleClick(false); // a finding's double-click opens its message
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(DoctorFindingModel::Finding, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(DoctorFindingModel::Check,
                                           QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(DoctorFindingModel::From, QHeaderView::ResizeToContents);
    // Every group open: a finding never hides under a collapsed row.
    connect(m_model, &QAbstractItemModel::modelReset, m_tree, [this] {
        m_tree->expandAll();
        selectFirstIfNone();
        // A reset clears the current row without a word: the detail follows by hand.
        showFinding(m_tree->currentIndex());
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, m_tree, [this](const QModelIndex &group) {
        if (group.isValid())
            m_tree->expand(group);
        selectFirstIfNone();
    });
    m_tree->expandAll();
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { showFinding(current); });
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        if (m_model->findingAt(index))
            openInTranscript(index);
        else
            m_tree->setExpanded(index.siblingAtColumn(0), !m_tree->isExpanded(index));
    });

    auto *detail = new QSplitter(Qt::Vertical, split);
    detail->setObjectName(u"doctorDetail"_s);
    auto *top = new QWidget(detail);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    m_detail = new QTextBrowser(top);
    m_detail->setObjectName(u"doctorFindingText"_s);
    m_detail->setAccessibleName(tr("The selected finding"));
    m_detail->setOpenExternalLinks(true);
    topLayout->addWidget(m_detail, 1);
    m_open = new QPushButton(tr("Open in transcript"), top);
    m_open->setObjectName(u"doctorOpenInTranscript"_s);
    m_open->setToolTip(tr("Show the message this finding rests on in the Transcript tab"));
    m_open->setEnabled(false);
    connect(m_open, &QPushButton::clicked, this,
            [this] { openInTranscript(m_tree->currentIndex()); });
    auto *openRow = new QHBoxLayout;
    openRow->addWidget(m_open);
    openRow->addStretch(1);
    topLayout->addLayout(openRow);
    // The request and the response side by side: each is a frame or two.
    auto *evidenceRow = new QSplitter(Qt::Horizontal, detail);
    const auto evidence = [evidenceRow](const QString &title, const QString &name) {
        auto *box = new QWidget(evidenceRow);
        auto *v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        auto *l = new QLabel(title, box);
        auto *view = new JsonView(box);
        view->setObjectName(name);
        view->setAccessibleName(title);
        l->setBuddy(view);
        v->addWidget(l);
        v->addWidget(view, 1);
        return view;
    };
    m_request = evidence(tr("Request"), u"doctorRequest"_s);
    m_response = evidence(tr("Response"), u"doctorResponse"_s);
    // The finding's words first. The list wider than the detail: a check's title is a
    // sentence.
    detail->setSizes({380, 220});
    split->setSizes({560, 440});
    layout->addWidget(split, 1);

    connect(store, &DoctorFindingStore::runChanged, this, [this](const QString &server) {
        if (server == m_server)
            updateRun();
    });
    showFinding({});
    updateRun();
}

void DoctorPanel::showServer(const QString &server, const QString &whyNoRun)
{
    m_whyNoRun = whyNoRun;
    if (server != m_server) {
        m_server = server;
        m_tree->setCurrentIndex({});
        m_model->setServer(server); // its reset selects the first finding, if any
    }
    updateRun();
}

QString DoctorPanel::runText() const
{
    return m_runState->text();
}

void DoctorPanel::updateRun()
{
    const DoctorFindingStore::Run run = m_store->run(m_server);
    const bool running = run.phase == DoctorFindingStore::Run::Phase::Running;
    m_run->setEnabled(!m_server.isEmpty() && m_whyNoRun.isEmpty() && !running);
    m_stop->setEnabled(running);
    m_writes->setEnabled(m_whyNoRun.isEmpty() && !running);
    QString text;
    QString tip;
    if (!m_whyNoRun.isEmpty()) {
        text = m_whyNoRun;
    } else if (running) {
        text = run.step.isEmpty() ? tr("Running…") : tr("Running: %1…").arg(run.step);
    } else if (run.phase == DoctorFindingStore::Run::Phase::Finished) {
        const DoctorReport &r = run.report;
        if (!r.connected) {
            text = tr("The last run could not reach the server: see connection.failed below.");
        } else {
            const auto n = [&r](DoctorSeverity severity) {
                return DoctorFindingModel::countText(severity, r.count(severity));
            };
            const QString seconds = QString::number(double(r.durationMs) / 1000.0, 'f', 1);
            text = (run.stopped ? tr("Run stopped after %1 s:") : tr("Last run (%1 s):"))
                       .arg(seconds) +
                   u' ' +
                   tr("%1, %2, %3. %4 checks ran, %5 skipped.")
                       .arg(n(DoctorSeverity::Error), n(DoctorSeverity::Warning),
                            n(DoctorSeverity::Info))
                       .arg(r.ran.size())
                       .arg(r.skipped.size());
            tip = doctorSkippedText(r);
        }
    } else {
        text = tr("Every message of this session is checked as it arrives. Run probes the "
                  "server too, on a session of its own.");
    }
    m_runState->setText(text);
    m_runState->setToolTip(tip);
}

void DoctorPanel::selectFirstIfNone()
{
    if (m_model->findingAt(m_tree->currentIndex()))
        return;
    for (int g = 0; g < m_model->rowCount(); ++g) {
        const QModelIndex group = m_model->index(g, 0);
        if (m_model->rowCount(group) > 0) {
            m_tree->setCurrentIndex(m_model->index(0, 0, group));
            return;
        }
    }
}

bool DoctorPanel::selectFinding(const QString &checkId)
{
    for (int g = 0; g < m_model->rowCount(); ++g) {
        const QModelIndex group = m_model->index(g, 0);
        for (int row = 0; row < m_model->rowCount(group); ++row) {
            const QModelIndex at = m_model->index(row, 0, group);
            if (m_model->findingAt(at)->checkId == checkId) {
                m_tree->setCurrentIndex(at);
                m_tree->scrollTo(at);
                return true;
            }
        }
    }
    return false;
}

QString DoctorPanel::detailHtml(const DoctorFinding &f)
{
    const DoctorCheck *check = DoctorCatalog::find(f.checkId);
    QString html =
        u"<h3 style=\"margin-bottom:2px\"><span style=\"color:%1\">%2</span> %3</h3>"_s.arg(
            DoctorFindingModel::severityColor(f.severity).name(),
            doctorSeverityText(f.severity).toHtmlEscaped(),
            DoctorFindingModel::checkTitle(f.checkId).toHtmlEscaped());
    html += u"<p><code>%1</code></p>"_s.arg(f.checkId.toHtmlEscaped());
    html += u"<p>%1</p>"_s.arg(f.message.toHtmlEscaped());
    if (check) {
        html += u"<p><b>%1</b> %2</p>"_s.arg(
            tr("The rule").toHtmlEscaped(),
            tr("(revision %1, %2):").arg(check->revision, check->section).toHtmlEscaped());
        html += u"<blockquote><i>%1</i></blockquote>"_s.arg(check->rule.toHtmlEscaped());
        if (!check->url.isEmpty())
            html += u"<p><a href=\"%1\">%2</a></p>"_s.arg(check->url.toHtmlEscaped(),
                                                          check->url.toHtmlEscaped());
        html += u"<p><b>%1</b> %2</p>"_s.arg(tr("How to fix it:").toHtmlEscaped(),
                                             check->fix.toHtmlEscaped());
    }
    const QString from =
        f.live ? (f.evidence.transcriptIndex >= 0
                      ? tr("Seen live in this session (generation %1). Double-click the finding "
                           "to open its message in the transcript.")
                            .arg(f.evidence.generation)
                      : tr("Seen live in this session (generation %1).").arg(f.evidence.generation))
               : tr("Found by the last Run, on a session of its own; its evidence is below.");
    html += u"<p style=\"color:gray\">%1</p>"_s.arg(from.toHtmlEscaped());
    return html;
}

void DoctorPanel::showFinding(const QModelIndex &index)
{
    const DoctorFinding *f = m_model->findingAt(index);
    if (!f) {
        m_detail->setHtml(u"<p style=\"color:gray\">%1</p>"_s.arg(
            (m_model->rowCount(m_model->groupIndex(DoctorSeverity::Error)) +
                         m_model->rowCount(m_model->groupIndex(DoctorSeverity::Warning)) +
                         m_model->rowCount(m_model->groupIndex(DoctorSeverity::Info)) ==
                     0
                 ? tr("Nothing found: the server broke no rule the doctor checks in what "
                      "it has sent so far.")
                 : tr("Select a finding to see the rule, the fix and the evidence."))
                .toHtmlEscaped()));
        m_request->setJson({});
        m_response->setJson({});
        m_open->setEnabled(false);
        return;
    }
    m_detail->setHtml(detailHtml(*f));
    // Each pane says when the finding rests on nothing of its side (a line the server sent
    // unasked has no request; a call that was never answered, no answer).
    const auto show = [](JsonView *view, const QByteArray &evidence) {
        if (evidence.isEmpty())
            view->setPlainText(tr("(none)"));
        else
            view->setJson(evidence);
    };
    show(m_request, f->evidence.request);
    show(m_response, f->evidence.response);
    m_open->setEnabled(f->live && f->evidence.transcriptIndex >= 0);
}

void DoctorPanel::openInTranscript(const QModelIndex &index)
{
    const DoctorFinding *f = m_model->findingAt(index);
    if (f && f->live && f->evidence.transcriptIndex >= 0)
        Q_EMIT transcriptRequested(f->evidence.transcriptIndex);
}

} // namespace Sonde

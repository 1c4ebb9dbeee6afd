// SPDX-License-Identifier: MIT
#include "transcript/collectionrundialog.h"

#include "collectionrun.h"
#include "junitreport.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

CollectionRunDialog::CollectionRunDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(u"collectionRunDialog"_s);
    setWindowTitle(tr("Run collection"));
    auto *layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(u"collectionSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_rows = new QTreeWidget(this);
    m_rows->setObjectName(u"collectionResults"_s);
    m_rows->setAccessibleName(tr("Calls"));
    m_rows->setRootIsDecorated(false);
    m_rows->setHeaderLabels({tr("Call"), tr("Result"), tr("ms"), tr("Reason")});
    const QFontMetrics fm = fontMetrics();
    m_rows->setColumnWidth(0, fm.horizontalAdvance(u"a call's name, quite long"_s));
    m_rows->setColumnWidth(1, fm.horizontalAdvance(u"Result"_s) * 2);
    m_rows->setColumnWidth(2, fm.horizontalAdvance(u"000000"_s));
    layout->addWidget(m_rows, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_saveJUnit = buttons->addButton(tr("Save JUnit…"), QDialogButtonBox::ActionRole);
    m_saveJUnit->setObjectName(u"saveJUnit"_s);
    m_saveJUnit->setEnabled(false);
    connect(m_saveJUnit, &QPushButton::clicked, this, [this] {
        auto *dialog =
            new QFileDialog(this, tr("Save JUnit report"), QString(), tr("JUnit XML (*.xml)"));
        dialog->setObjectName(u"saveJUnitDialog"_s);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setDefaultSuffix(u"xml"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            QString error;
            if (saveJUnit(path, &error))
                return;
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Save JUnit report"), error,
                                        QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
        dialog->open();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(fm.averageCharWidth() * 110, fm.height() * 28);
}

CollectionRunDialog::~CollectionRunDialog() = default;

void CollectionRunDialog::chooseAndRun(QWidget *parent)
{
    auto *choose =
        new QFileDialog(parent, tr("Run collection"), QString(), tr("Collections (*.json)"));
    choose->setObjectName(u"runCollectionFile"_s);
    choose->setFileMode(QFileDialog::ExistingFile);
    choose->setAttribute(Qt::WA_DeleteOnClose);
    connect(choose, &QFileDialog::fileSelected, parent, [parent](const QString &path) {
        auto *dialog = new CollectionRunDialog(parent);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->start(path);
    });
    choose->open();
}

bool CollectionRunDialog::start(const QString &path)
{
    QString error;
    std::optional<Collection> collection = Collection::load(path, &error);
    if (!collection) {
        m_summary->setText(tr("Not run: %1").arg(error));
        m_finished = true;
        Q_EMIT runFinished();
        return false;
    }
    setWindowTitle(tr("Run collection %1").arg(collection->name));
    m_summary->setText(tr("Running %1 (%n call(s)) on %2…", nullptr, int(collection->calls.size()))
                           .arg(collection->name, collection->server.displayCommand()));
    m_run = std::make_unique<CollectionRun>(std::move(*collection));
    connect(m_run.get(), &CollectionRun::callFinished, this,
            [this] { addRow(int(m_run->results().size()) - 1); });
    connect(m_run.get(), &CollectionRun::authorizationNeeded, this, [this](const QUrl &url) {
        m_summary->setText(tr("Open this address to authorize Sonde: %1").arg(url.toString()));
    });
    connect(m_run.get(), &CollectionRun::finished, this, &CollectionRunDialog::finish);
    m_startedAt = QDateTime::currentDateTimeUtc();
    m_startedMs = m_startedAt.toMSecsSinceEpoch();
    m_run->start();
    return true;
}

void CollectionRunDialog::addRow(int index)
{
    const CollectionRun::Result &r = m_run->results().at(index);
    auto *item = new QTreeWidgetItem({r.name, r.passed ? tr("passed") : tr("failed"),
                                      QString::number(r.elapsedMs), r.reasons.join(u"; "_s)});
    item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(3, r.reasons.join(u'\n'));
    item->setForeground(1, r.passed ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    m_rows->addTopLevelItem(item);
}

void CollectionRunDialog::finish()
{
    m_totalMs = QDateTime::currentMSecsSinceEpoch() - m_startedMs;
    m_finished = true;
    const QList<CollectionRun::Result> &results = m_run->results();
    const auto passed = std::count_if(results.begin(), results.end(),
                                      [](const CollectionRun::Result &r) { return r.passed; });
    if (!m_run->connectionError().isEmpty())
        m_summary->setText(tr("Not run: %1").arg(m_run->connectionError()));
    else
        m_summary->setText(tr("%1: %2 of %3 calls passed in %4 ms")
                               .arg(m_run->collection().name)
                               .arg(passed)
                               .arg(results.size())
                               .arg(m_totalMs));
    m_saveJUnit->setEnabled(true);
    Q_EMIT runFinished();
}

QString CollectionRunDialog::summaryText() const
{
    return m_summary->text();
}

bool CollectionRunDialog::saveJUnit(const QString &path, QString *error) const
{
    if (!m_run || !m_finished) {
        *error = tr("The run has not finished");
        return false;
    }
    return JUnitReport::write(path,
                              JUnitReport::toXml(m_run->collection().name, m_run->results(),
                                                 m_run->connectionError(), m_startedAt, m_totalMs),
                              error);
}

} // namespace Sonde

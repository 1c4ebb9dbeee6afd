// SPDX-License-Identifier: MIT
#include "timeline/timelinetab.h"

#include "application/history/historycatalog.h"
#include "application/timeline/timelinerecording.h"
#include "application/transcript/transcriptstore.h"
#include "timeline/timelinewidget.h"

#include <QDateTime>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

TimelineTab::TimelineTab(TranscriptStore *live, QWidget *parent)
    : QWidget(parent), m_timeline(new TimelineWidget(this)), m_live(live)
{
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_banner = new QFrame(this);
    m_banner->setObjectName(u"recordedBanner"_s);
    m_banner->setFrameShape(QFrame::StyledPanel);
    // The highlight colour, so it reads as a state of the view in both palettes.
    m_banner->setAutoFillBackground(true);
    m_banner->setBackgroundRole(QPalette::AlternateBase);
    auto *row = new QHBoxLayout(m_banner);
    row->setContentsMargins(8, 4, 8, 4);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setObjectName(u"recordedBannerText"_s);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_bannerText, 1);
    m_backToLive = new QPushButton(tr("Back to live"), m_banner);
    m_backToLive->setObjectName(u"backToLive"_s);
    m_backToLive->setToolTip(tr("Show the live transcript on the timeline again"));
    connect(m_backToLive, &QPushButton::clicked, this, &TimelineTab::showLive);
    row->addWidget(m_backToLive);
    m_banner->hide();
    column->addWidget(m_banner);
    m_tail = new QLabel(this);
    m_tail->setObjectName(u"timelineTail"_s);
    m_tail->setContentsMargins(8, 2, 8, 2);
    m_tail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tail->hide();
    column->addWidget(m_tail);
    m_timeline->setObjectName(u"timeline"_s);
    m_timeline->setStore(live);
    column->addWidget(m_timeline, 1);
    if (live) {
        connect(live, &TranscriptStore::rowsDropped, this, &TimelineTab::updateTail);
        connect(live, &TranscriptStore::reset, this, &TimelineTab::updateTail);
        // The count in the line follows the appends only once something was dropped.
        connect(live, &TranscriptStore::rowsAppended, this, [this] {
            if (m_live && m_live->droppedCount() > 0)
                updateTail();
        });
    }
    updateTail();
}

QString TimelineTab::tailText() const
{
    return m_tail->isHidden() ? QString() : m_tail->text();
}

void TimelineTab::setTailInHistory(bool inHistory)
{
    m_tailInHistory = inHistory;
    updateTail();
}

void TimelineTab::updateTail()
{
    const bool cut = !m_recorded && m_live && m_live->droppedCount() > 0;
    if (cut) {
        const QString newest = QLocale().toString(m_live->size());
        m_tail->setText(m_tailInHistory
                            ? tr("The newest %1 events; older ones: History tab → Show on "
                                 "timeline")
                                  .arg(newest)
                            : tr("The newest %1 events; older ones were dropped").arg(newest));
    }
    m_tail->setVisible(cut);
}

TimelineTab::~TimelineTab()
{
    m_timeline->setStore(nullptr); // before the recorded store goes
}

QString TimelineTab::bannerText() const
{
    return m_recorded ? m_bannerText->text() : QString();
}

void TimelineTab::showRecorded(const RecordedSession &session, const HistoryCatalog &catalog,
                               int maxEvents)
{
    const std::unique_ptr<TranscriptPageSource> source = catalog.sessionEvents(session.id);
    const TimelineRecording recording =
        source ? TimelineRecording::read(*source,
                                         maxEvents > 0 ? maxEvents : TimelineRecording::MaxEvents)
               : TimelineRecording();
    // Large enough for every event read: a live store's bound would drop the first ones.
    auto store =
        std::make_unique<TranscriptStore>(int(qMax<qsizetype>(recording.events.size() + 1, 16)),
                                          nullptr, TranscriptStore::DefaultCapacityBytes);
    store->append(recording.events);
    m_timeline->setStore(store.get());
    m_recorded = std::move(store);
    m_recordedFrom = &catalog;
    // "Now" is the session's end, so its last generation ends there and not at the clock.
    const qint64 end = recording.events.isEmpty()
                           ? session.endedMs
                           : qMax(session.endedMs, recording.events.last().timeMs);
    m_timeline->setNowFunction([end] { return end; });
    m_timeline->fitAll();

    const QLocale locale;
    QString text = tr("Recorded session: %1, generation %2, %3 (not live)")
                       .arg(session.server)
                       .arg(session.generation)
                       .arg(QDateTime::fromMSecsSinceEpoch(session.startedMs)
                                .toString(u"yyyy-MM-dd HH:mm:ss"_s));
    if (recording.isCut())
        text += u" · "_s + tr("the first %1 of %2 events drawn")
                               .arg(locale.toString(qlonglong(recording.events.size())),
                                    locale.toString(recording.total));
    else
        text += u" · "_s + tr("%n event(s)", nullptr, int(recording.events.size()));
    m_bannerText->setText(text);
    m_banner->show();
    updateTail();
}

void TimelineTab::showLive()
{
    if (!m_recorded)
        return;
    m_banner->hide();
    m_timeline->setStore(m_live);
    m_timeline->setNowFunction({});
    m_recorded.reset();
    m_timeline->followLatest();
    updateTail();
    Q_EMIT liveShown();
}

} // namespace Sonde

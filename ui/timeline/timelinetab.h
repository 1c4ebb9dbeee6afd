// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

class QFrame;
class QLabel;
class QPushButton;

namespace Sonde {

class HistoryCatalog;
class TimelineWidget;
class TranscriptStore;
struct RecordedSession;

// The Timeline tab: the live transcript on a TimelineWidget, or a past session read from a
// history (the workspace's or an opened file's), with a banner that says it is recorded (server,
// generation, date, and how much was drawn when it was cut) and a button back to live. A
// recorded session is fed to the same widget as the live one, as TranscriptEvent values in a
// store of its own. While live, a line under the banner says when the live store holds only
// the newest events (it dropped older ones: its bound, or the short tail a window recording
// into a history keeps) and where the rest are. Thread: GUI. Does not own the live store.
class TimelineTab : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineTab(TranscriptStore *live, QWidget *parent = nullptr);
    ~TimelineTab() override;

    TimelineWidget *timeline() const { return m_timeline; }
    // Draws the session's recorded events (at most TimelineRecording::MaxEvents, or
    // `maxEvents`) instead of the live ones.
    void showRecorded(const RecordedSession &session, const HistoryCatalog &catalog,
                      int maxEvents = -1);
    void showLive();
    bool isRecorded() const { return m_recorded != nullptr; }
    // The catalog the recorded session was read from (null while live): to compare with one
    // that goes away, never to read through (its events were copied).
    const HistoryCatalog *recordedFrom() const { return m_recorded ? m_recordedFrom : nullptr; }
    QString bannerText() const; // empty while live
    // "the newest N events; …" while live and the store dropped some; empty otherwise.
    QString tailText() const;
    // The events the live store dropped are in the history (the window records): the line
    // says where to find them.
    void setTailInHistory(bool inHistory);

Q_SIGNALS:
    void liveShown();

private:
    void updateTail();

    TimelineWidget *m_timeline;
    QPointer<TranscriptStore> m_live;
    std::unique_ptr<TranscriptStore> m_recorded;
    const HistoryCatalog *m_recordedFrom = nullptr;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_backToLive;
    QLabel *m_tail;
    bool m_tailInHistory = false;
};

} // namespace Sonde

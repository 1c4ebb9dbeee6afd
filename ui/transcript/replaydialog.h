// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/replayrequest.h"
#include "util/jsondiff.h"

#include <QDialog>

class QLabel;
class QTreeWidget;

namespace Sonde {

class JsonView;
struct CallOutcome;

// A replayed request's two answers side by side, the recorded one and the live server's new
// one, and under them their structural diff (JsonDiff) as a list of pointer, change, recorded
// value and new value, with a count ("3 differences", "identical"). It shows the request at
// once and the new answer when it comes. Thread: GUI.
class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    // Differences listed at most; the rest are counted.
    static constexpr int MaxListed = 500;

    explicit ReplayDialog(const ReplayRequest &request, QWidget *parent = nullptr);
    void showOutcome(const CallOutcome &outcome);
    // The new answer as ReplayRequest::answerOf shapes it.
    void showAnswer(const QJsonValue &answer);

    QString countText() const;
    const JsonDiff::Result &diff() const { return m_diff; }
    bool answered() const { return m_answered; }

private:
    ReplayRequest m_request;
    JsonDiff::Result m_diff;
    bool m_answered = false;
    JsonView *m_recorded;
    JsonView *m_live;
    QLabel *m_count;
    QTreeWidget *m_differences;
};

} // namespace Sonde

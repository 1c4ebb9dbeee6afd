// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;

namespace Sonde {

// One dismissable line above the panels: the first run's pointer at Health → Expire
// session, or a problem worth seeing (the built-in HTTP demo stopped, secrets to enter
// again), which goes by itself once it is settled. Hidden until given
// a text. Its links ask for a server (linkActivated, the href). Thread: GUI.
class HintBar : public QWidget
{
    Q_OBJECT

Q_SIGNALS:
    void linkActivated(const QString &href);

public:
    explicit HintBar(QWidget *parent = nullptr);
    // Rich text (bold, a link); shows the bar again if it was dismissed. `topic` names what
    // it is about, so that it can be taken away when that is settled (dismiss()).
    void showText(const QString &html, const QString &topic = {});
    // Hides the bar if it still shows `topic`'s text (another text since stays).
    void dismiss(const QString &topic);
    QString topic() const { return m_topic; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QLabel *m_text = nullptr;
    QString m_topic;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;

namespace Sonde {

// One dismissable line above the panels: the first run's pointer at Health → Expire
// session, or a problem worth seeing (the built-in HTTP demo stopped). Hidden until given
// a text. Its links ask for a server (linkActivated, the href). Thread: GUI.
class HintBar : public QWidget
{
    Q_OBJECT

Q_SIGNALS:
    void linkActivated(const QString &href);

public:
    explicit HintBar(QWidget *parent = nullptr);
    // Rich text (bold, a link); shows the bar again if it was dismissed.
    void showText(const QString &html);

private:
    QLabel *m_text = nullptr;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace Sonde {

class ReplayBook;

// The demo server's state that outlives a session (HTTP: shared by all sessions) or a
// process (stdio with --state-file), so tests can count side effects across reconnects.
class DemoState : public QObject
{
    Q_OBJECT
public:
    explicit DemoState(QString path = {});
    qint64 counter() const { return m_counter; }
    qint64 add(qint64 by);
    // Tools added after the built-in ones (--tools N), for clients' tests at scale: a list
    // of a thousand tools is what a large server (an API gateway, a code host) offers.
    int generatedTools() const { return m_generatedTools; }
    void setGeneratedTools(int count) { m_generatedTools = count; }
    // --replay: every session answers from this recording instead of its own tools.
    ReplayBook *replay() const { return m_replay.get(); }
    void setReplay(std::shared_ptr<ReplayBook> book) { m_replay = std::move(book); }

Q_SIGNALS:
    // Every server sharing this state tells its listeners (resources/updated demo://counter).
    void counterChanged();

private:
    QString m_path;
    qint64 m_counter = 0;
    int m_generatedTools = 0;
    std::shared_ptr<ReplayBook> m_replay;
};

} // namespace Sonde

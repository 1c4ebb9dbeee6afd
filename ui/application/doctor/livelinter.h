// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"
#include "transcript/transcriptevent.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace Sonde {

// The doctor's passive lints (MessageLinter, one per server) on every session the window
// shows, as its messages arrive. Each frame is parsed once more for them, which a flood of
// large answers would pay on the GUI thread: the linters live on a thread of their own
// ("sonde-doctor-lint"), and a batch is handed over shared, never copied. What they find
// comes back on the GUI thread as found(), for the servers still watched: a server removed
// (or removed and added again under its name) while its batch was linted gets nothing of it.
// Thread: GUI (asserted); owns the lint thread, quit and joined on destruction.
class LiveLinter : public QObject
{
    Q_OBJECT
public:
    explicit LiveLinter(QObject *parent = nullptr);
    ~LiveLinter() override;

    // A server to lint from now on (`stdio`: its frames are stdout lines, and a line that is
    // not JSON-RPC is stdio.non-jsonrpc-stdout). Called again for a server already watched
    // (its configuration edited), it takes the new `stdio` and keeps what the linter knows,
    // so nothing already said is said twice.
    void watch(const QString &server, bool stdio);
    // Its linter goes, and whatever is still being linted for it is dropped.
    void forget(const QString &server);
    bool watches(const QString &server) const { return m_epochs.contains(server); }
    // A batch as the transcript numbered it: batch[i] is event firstIndex + i, the index each
    // finding's evidence carries. Events of servers not watched are passed over.
    void feed(const TranscriptBatch &batch, qint64 firstIndex);

Q_SIGNALS:
    // What a batch newly broke on `server`, in the order of its events.
    void found(const QString &server, const QList<Sonde::DoctorFinding> &findings);
    // Every batch fed before this one is linted (its findings, if any, came first).
    void linted(qint64 nextIndex);

private:
    struct Lints; // the lint thread's: the linters by server
    template <typename F> void post(F &&f);
    void deliver(const QString &server, quint64 epoch, const QList<DoctorFinding> &findings);

    QThread *m_thread = nullptr;
    QObject *m_context = nullptr; // lives on m_thread: what is posted runs there
    std::unique_ptr<Lints> m_lints;
    // Each watch of a new server is an epoch; findings come back with theirs, and those of an
    // epoch no longer watched are dropped.
    QHash<QString, quint64> m_epochs;
    quint64 m_nextEpoch = 0;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "transport/fault.h"
#include "transport/forwardingtransport.h"

#include <QList>
#include <QSet>

#include <memory>
#include <optional>

namespace Sonde {

class Clock;

// The decorator every session talks to its transport through; it implements each fault
// (docs/recovery.md; the fault panel and `{"op":"fault"}`) by acting on the frames and signals
// that pass through it, so the transports themselves have no fault branches:
//   delay                 holds each answer `ms` (order kept), until cleared;
//   expire-after-dispatch lets the next request go, then replaces its answer with a
//                         session expiry (the real answer is withheld, only recorded);
//   http-status           answers the next POST with a status, locally (it never leaves);
//   expire-session        DELETEs the session on the server and holds the frames sent
//                         meanwhile, so they meet the expiry; corrupt-session-id replaces
//                         the id; drop-connection aborts the open replies (HttpControl);
//   kill-process, kill-during-next-call  SIGKILL the child (ProcessControl).
// The faults that outlive a transport (delay, expire-after-dispatch) live in a Standing
// shared by the session's transports. Thread: the engine's. Owned by its ServerSession; owns
// the transport it wraps.
class FaultInjectingTransport final : public ForwardingTransport
{
    Q_OBJECT
public:
    struct Standing
    {
        int delayMs = 0;
        bool expireNextAnswer = false;
    };

    FaultInjectingTransport(std::unique_ptr<Transport> inner, const Clock &clock,
                            std::shared_ptr<Standing> standing, QObject *parent = nullptr);

    Transport *inner() const { return next(); }
    // Applies a fault, or says why it does not apply to this route.
    Error injectFault(const Fault &fault);
    // The faults that need no transport (delay, expire-after-dispatch, clear), applied to
    // `standing`; nothing for the others.
    static std::optional<Error> applyStanding(Standing &standing, const Fault &fault);
    // What waits for a request still to come on this transport ("kill-during-next-call",
    // "http-status 503"...): gone with it. And what `standing` keeps until cleared.
    QStringList armedOnce() const;
    static QStringList describeStanding(const Standing &standing);

    void send(const QByteArray &frame) override;
    void close() override;
    void abort() override;
    void drain() override;
    void abandon(const QJsonValue &id) override;

private:
    // send() after the session's own bookkeeping: held, answered locally, or passed on.
    void route(const QByteArray &frame);
    bool fakeStatus(const Outgoing &out);
    void killAfterWrite();
    void onFrame(const QByteArray &frame);
    void pass(const QByteArray &frame);
    void onClosed(const Error &reason);
    void releaseHeld(int deleteStatus);
    Error injectRev20260728Fault(const Fault &fault);
    // A modern fault that answers `out` here instead of the server; true when one did.
    bool answerLocally(const Outgoing &out);
    void deliverLocally(const QJsonValue &id, const QJsonObject &answer, const QString &fault);

    const Clock &m_clock;
    std::shared_ptr<Standing> m_standing;
    QSet<QString> m_expireAnswerOf; // idKeys whose answers are replaced
    int m_statusToFake = 0;
    bool m_killOnNextRequest = false;
    bool m_holding = false; // expire-session: its DELETE is under way
    QList<QByteArray> m_held;
    int m_delayed = 0; // answers held by the delay fault
    std::optional<Error> m_closeAfterDelayed;
    bool m_draining = false;
    bool m_innerClosed = false;
    // 2026-07-28 faults
    bool m_dropNextStream = false;
    QSet<QString> m_dropAnswerOf; // idKeys whose streams break before the answer
    bool m_refuseNextVersion = false;
    int m_inputRequiredLeft = 0;
    QJsonValue m_listenId = QJsonValue(QJsonValue::Undefined); // the last listen sent
};

} // namespace Sonde

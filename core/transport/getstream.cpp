// SPDX-License-Identifier: MIT
#include "transport/getstream.h"

#include "util/enumnames.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr int DefaultRetryMs = 1000;

QString GetStream::describe() const
{
    static const char *const names[] = {"not opened",
                                        "connecting",
                                        "open",
                                        "reconnecting",
                                        "none (the server answered HTTP %1)",
                                        "failed (HTTP %1)",
                                        "refused (HTTP %1)"};
    const QString name = enumName(names, m_state);
    return name.contains("%1"_L1) ? name.arg(m_status) : name;
}

LifecycleDetails::GetStreamOpen GetStream::opened()
{
    m_state = State::Open;
    m_wasOpen = true;
    m_failures = 0;
    return {m_lastEventId};
}

GetStream::Verdict GetStream::finished(int status, bool sessionIdSent, int retryMs,
                                       LifecycleDetails *details, const QString &errorText)
{
    m_status = status;
    if (m_wasOpen && (status == 400 || status == 404) && sessionIdSent) {
        m_state = State::Refused;
        return Verdict::SessionLost;
    }
    if (status == 404 || status == 405) {
        m_state = State::NotOffered;
        *details = LifecycleDetails::GetStreamUnavailable{status};
        return Verdict::GivenUp;
    }
    if (status >= 400) {
        m_state = State::Failed;
        *details = LifecycleDetails::GetStreamFailed{status};
        return Verdict::GivenUp;
    }
    // Ended or dropped: reopen after the server's retry delay (with backoff on failures).
    ++m_failures;
    const int delay =
        retryMs >= 0 ? retryMs : std::min(DefaultRetryMs << std::min(m_failures - 1, 5), 30'000);
    m_state = State::Reconnecting;
    *details = LifecycleDetails::GetStreamClosed{.reconnectInMs = delay, .error = errorText};
    QTimer::singleShot(delay, this, &GetStream::reopenDue);
    return Verdict::Reopening;
}

} // namespace Sonde

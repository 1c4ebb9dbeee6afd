// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"

namespace Sonde {

// Where the supervisor's session stands, as its parts read it: the last state seen, the
// newest generation that became ready, and whether the supervisor is shutting down. Written
// by the ServerSupervisor only.
struct ServerProgress
{
    SessionSnapshot::State state = SessionSnapshot::State::Idle;
    int generation = 0;
    bool stopping = false;
    bool sessionless = false; // the era of the newest generation has no session (2026-07-28)

    bool ready() const { return state == SessionSnapshot::State::Ready; }
};

} // namespace Sonde

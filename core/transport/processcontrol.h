// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QtGlobal>

namespace Sonde {

// What a fault needs from a route with a child process: its pid and a kill. Implemented by
// StdioTransport, found through Transport::processControl(); used by FaultInjectingTransport
// only. Thread: the transport's.
class ProcessControl
{
public:
    virtual ~ProcessControl() = default;
    virtual qint64 processId() const = 0;
    // Sends SIGKILL now; false if no child is running.
    virtual bool kill() = 0;
    // After kill(): the transport closes with `reason` at once instead of when the child is
    // reaped (SIGKILL cannot be caught, so the end is already known). What the child wrote
    // before is still delivered. Nothing happens if the transport has closed already.
    virtual void declareKilled(const Error &reason) = 0;
};

} // namespace Sonde

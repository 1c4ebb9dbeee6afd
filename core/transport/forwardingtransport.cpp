// SPDX-License-Identifier: MIT
#include "transport/forwardingtransport.h"

namespace Sonde {

void ForwardingTransport::setNext(Transport *next)
{
    m_next = next;
    next->setParent(this);
    connect(next, &Transport::frameWithheld, this, &Transport::frameWithheld);
    connect(next, &Transport::frameDropped, this, &Transport::frameDropped);
    connect(next, &Transport::stderrLine, this, &Transport::stderrLine);
    connect(next, &Transport::connectionLost, this, &Transport::connectionLost);
    connect(next, &Transport::lifecycleEvent, this, &Transport::lifecycleEvent);
}

} // namespace Sonde

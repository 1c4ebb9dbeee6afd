// SPDX-License-Identifier: MIT
#include "transport/transport.h"

namespace Sonde {
Transport::~Transport() = default;

Error Transport::injectFault(const Fault &fault)
{
    return Error::protocol(
        QStringLiteral("the fault %1 does not apply to this transport").arg(fault.describe()));
}
} // namespace Sonde

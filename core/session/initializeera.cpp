// SPDX-License-Identifier: MIT
#include "session/initializeera.h"

#include "protocol/mcp.h"

namespace Sonde {

bool InitializeEra::speaks(const QString &version) const
{
    return Mcp::isSupportedProtocolVersion(version);
}

} // namespace Sonde

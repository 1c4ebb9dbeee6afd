// SPDX-License-Identifier: MIT
#include "session/initializeera.h"

#include "protocol/mcp.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QString InitializeEra::name() const
{
    return u"initialize"_s;
}

bool InitializeEra::speaks(const QString &version) const
{
    return Mcp::isSupportedProtocolVersion(version);
}

} // namespace Sonde

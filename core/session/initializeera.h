// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionera.h"

namespace Sonde {

// The initialize-handshake era (2024-11-05 to 2025-11-25): a session the handshake opened.
// Requests go out as they are, cancellation is a notifications/cancelled frame, and nothing
// runs beside the calls: the base's behaviour, under its own name. Thread: the session's.
class InitializeEra final : public SessionEra
{
public:
    using SessionEra::SessionEra;

    std::optional<ServerConfig::Era> kind() const override { return ServerConfig::Era::Initialize; }
    bool speaks(const QString &version) const override;
};

} // namespace Sonde

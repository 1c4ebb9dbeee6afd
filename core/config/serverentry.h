// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QJsonObject>

namespace Sonde {

// A server as an entry of an mcp.json-style config: command, args, env and cwd, or type, url
// and headers; the era when it is not auto; the client's identity at an authorization server
// (never its secret). What the workspace saves and a collection's "server" holds; what
// ServerConfig's reader reads back.
class ServerEntry
{
public:
    static QJsonObject toJson(const ServerConfig &config);
};

} // namespace Sonde

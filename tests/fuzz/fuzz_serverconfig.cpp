// SPDX-License-Identifier: MIT
// ServerConfigFile::parse, the config import entry point (mcp.json, .mcp.json, JSONC):
// never crashes, and a refused file says why.
#include "config/serverconfig.h"
#include "fuzzsupport.h"

using namespace Sonde;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const ServerConfigFile::Result r = ServerConfigFile::parse(json, u"fuzz.json"_s);
    if (r.error.isError())
        FUZZ_CHECK(!r.error.message().isEmpty());
    return 0;
}

// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QtGlobal>

namespace Sonde::Limits {

// Every parser that buffers bytes from a peer has a bound, so a broken or hostile server
// costs one dropped frame, not the process. The defaults are far above any real MCP
// answer (the largest seen in practice are a few MiB of base64 images) and apply without
// configuration; an owner may lower or raise them per parser.

// A stdio line, an SSE event, a JSON body.
inline constexpr qsizetype DefaultMaxFrameBytes = 64 * 1024 * 1024;
// Objects and arrays inside one another. Real messages stay under 20; Qt's parser recurses
// per level, so a frame of nothing but '[' must be refused before it reaches it.
inline constexpr int MaxJsonDepth = 512;
// The SSE "retry:" hint the server may set, in milliseconds (see SseParser).
inline constexpr int MaxSseRetryMs = 60'000;

// "64 MiB", "512 KiB", "100 bytes": a limit as a message names it.
QString describeBytes(qsizetype bytes);

// The one wording every frame limit uses when it drops something, e.g.
// "an SSE event is over the 64 MiB frame limit; dropped" or
// "3 stdout lines were over the 64 MiB frame limit; dropped".
// `oneThing` carries its article ("a stdout line"), `things` is the plural ("stdout lines").
QString oversizedMessage(int count, const QString &oneThing, const QString &things,
                         qsizetype limit);

} // namespace Sonde::Limits

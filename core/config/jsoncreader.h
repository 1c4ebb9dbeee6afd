// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace Sonde {

// Turns JSONC (JSON with // and /* */ comments and trailing commas, as VS Code writes its
// mcp.json) into plain JSON for QJsonDocument. Comments and trailing commas become spaces
// (a comment's newlines are kept), so every byte keeps its offset and a parse error still
// points at the right line and column of the file as written. Text inside strings is never
// touched. Stateless; callable from any thread.
class JsoncReader
{
public:
    // Config files are a few KiB; anything this large is not one, and is refused before any
    // work is done on it.
    static constexpr qsizetype MaxInputBytes = 8 * 1024 * 1024;

    // On failure (too large, an unterminated /* comment) returns nothing and sets *error and
    // *errorOffset (the byte where the problem starts).
    static std::optional<QByteArray> toJson(const QByteArray &jsonc, QString *error,
                                            qsizetype *errorOffset = nullptr);
};

} // namespace Sonde

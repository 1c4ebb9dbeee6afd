// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QLatin1StringView>

#include <optional>
#include <variant>

namespace Sonde::JsonSpan {

// Where a string value sits in JSON text, without parsing it: the bytes between its quotes,
// escapes as written. What lets a front end pass a 50 MiB text on from the frame it came in,
// instead of copying it out of a parsed document and serializing it again.
struct Span
{
    qsizetype from = 0; // first byte after the opening quote
    qsizetype size = 0; // up to the closing quote
};

// One step of a path: an object's key (plain ASCII, as written; a key written with escapes
// is never matched) or an array's index.
using Step = std::variant<QLatin1StringView, int>;

// The string at `path` in `json`, or nothing when the text is not JSON, the path leads
// elsewhere, or the value is not a string. Where an object repeats a key, the last one counts,
// as in Qt's parser.
std::optional<Span> stringAt(QByteArrayView json, std::initializer_list<Step> path);

// The same JSON with every string value or key longer than `maxStringBytes` (its bytes as
// written) cut to at most that many and marked with "…": what a view or a summary of a 20 MiB
// answer parses instead of the answer, in one pass and without widening anything to UTF-16.
// The structure, numbers and short strings are as written; a cut never splits an escape or a
// UTF-8 sequence. `cut`, when given, counts the bytes left out. Returns nothing when a string
// is not valid JSON text (the caller parses the original and reports why). With nothing to
// cut, `json` itself, shared.
std::optional<QByteArray> shortened(const QByteArray &json, qsizetype maxStringBytes,
                                    qsizetype *cut = nullptr);

} // namespace Sonde::JsonSpan

// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QPlainTextEdit;

namespace Sonde::TextDisplay {

// What a text view is given of a server's text. QPlainTextEdit lays a wrapped line out in
// time that grows with the square of its length (measured here: 0.8 s for a 100 KB line,
// 58 s for 1 MB), and a tool may answer with 50 MB on one line: a view shows at most
// MaxShownChars, says what it left out and where the rest is, and does not wrap a text
// with a line longer than MaxWrappedLine (unwrapped, layout is linear).
inline constexpr qsizetype MaxShownChars = 256 * 1024;
inline constexpr qsizetype MaxWrappedLine = 10'000;
// One line of a log view (the log pane, stderr): longer ones are cut.
inline constexpr qsizetype MaxLogLine = 2'000;

struct Fitted
{
    QString text;          // at most MaxShownChars, plus a last line about the rest
    qsizetype omitted = 0; // characters left out
    bool longLines = false;
};

// `whereTheRest` completes "the rest is ..." (for example "in Save answer…"); empty: no hint.
Fitted fit(const QString &text, const QString &whereTheRest = {},
           qsizetype maxChars = MaxShownChars);
// Sets `text` on `view` through fit(), wrapping only when every line is short.
void show(QPlainTextEdit *view, const QString &text, const QString &whereTheRest = {},
          qsizetype maxChars = MaxShownChars);
// The same for UTF-8 bytes too large to be worth decoding whole: the first MaxShownChars
// characters are decoded, the rest is counted in bytes.
void showUtf8(QPlainTextEdit *view, const QByteArray &bytes, const QString &whereTheRest = {},
              qsizetype maxChars = MaxShownChars);
// One log line, cut at MaxLogLine with a note of what was cut.
QString logLine(const QString &line);
// The same for UTF-8 bytes, decoding only what is shown (a 50 MB frame is not decoded whole).
QString fromUtf8(const QByteArray &bytes, qsizetype maxChars = MaxShownChars,
                 qsizetype *omittedBytes = nullptr);

} // namespace Sonde::TextDisplay

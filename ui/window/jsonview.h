// SPDX-License-Identifier: MIT
#pragma once

#include "window/textdisplay.h"

#include <QPlainTextEdit>

namespace Sonde {

// A read-only view of a JSON document with syntax highlighting: KSyntaxHighlighting when it
// was found at build time, a small built-in highlighter otherwise (the choice stays in the
// .cpp, so this header never names KSyntaxHighlighting).
class JsonView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit JsonView(QWidget *parent = nullptr);
    // Shown indented when it is small enough to reformat, else as it came; in both cases
    // at most TextDisplay::MaxShownChars, with a last line saying what was left out and,
    // when given, where the rest is ("in Save answer…").
    // `maxChars`: less than a view can show, for a first screen (the answer view's).
    void setJson(const QByteArray &json, const QString &whereTheRest = {},
                 qsizetype maxChars = TextDisplay::MaxShownChars);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

class QFormLayout;
class QLabel;
class QString;
class QWidget;

namespace Sonde::FormLabels {

// Gives every field of a form that has no accessible name its row's label text, so a
// screen reader says "Program" instead of "edit". Call once the rows are added. Thread: GUI.
void nameFields(QFormLayout *form);

// A note under a field (its help, the header it is sent as): plain, word-wrapped text in the
// placeholder colour and a smaller font, so it reads as secondary. Unparented.
QLabel *note(const QString &text);

// Grows `window` to the height its layout needs at its width: a word-wrapped text that got
// longer (or a line shown) after the window was sized is shown whole, never cut off.
void fitHeight(QWidget *window);

} // namespace Sonde::FormLabels

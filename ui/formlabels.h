// SPDX-License-Identifier: MIT
#pragma once

class QFormLayout;

namespace Sonde::FormLabels {

// Gives every field of a form that has no accessible name its row's label text, so a
// screen reader says "Program" instead of "edit". Call once the rows are added. Thread: GUI.
void nameFields(QFormLayout *form);

} // namespace Sonde::FormLabels

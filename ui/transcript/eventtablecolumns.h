// SPDX-License-Identifier: MIT
#pragma once

class QTableView;

namespace Sonde {

// The columns of a table of transcript events (TranscriptModel's, in the Transcript and the
// History tab: Time, Server, Gen, Dir, Method / Id, Latency, Summary). Each gets a width for
// what it holds, from the header's word and a typical value, never from the rows (a view that
// measured its rows would read every page of a paged model); the Summary takes what is left,
// so it stays on screen in a narrow window instead of behind a horizontal scroll bar. Every
// column stays resizable by hand.
void sizeEventColumns(QTableView *table);

} // namespace Sonde

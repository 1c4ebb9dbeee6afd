// SPDX-License-Identifier: MIT
#pragma once

namespace Sonde::MemoryPolicy {

// Blocks this large or larger are mapped on their own and given back to the system when freed.
inline constexpr int LargeBlockBytes = 128 * 1024;

// glibc raises its mmap threshold each time it frees a mapped block (up to 32 MiB), and from
// then on serves blocks under the new threshold from per-thread heaps that keep their freed
// pages. Qt's HTTP thread passes a 50 MiB body on in chunks: with the threshold raised, 5 to
// 14 MiB of freed chunks stayed resident in sonde-cli, a different figure every run; with it
// fixed, none did, and the time was the same. Called first thing in each program's main(),
// before any thread starts; a no-op where the C library is not glibc.
void returnLargeBlocksWhenFreed();

} // namespace Sonde::MemoryPolicy

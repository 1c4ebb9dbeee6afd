// SPDX-License-Identifier: MIT
#include "util/memorypolicy.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace Sonde::MemoryPolicy {

void returnLargeBlocksWhenFreed()
{
#ifdef __GLIBC__
    // Setting it at all also turns glibc's raising of it off (mallopt(3), M_MMAP_THRESHOLD).
    mallopt(M_MMAP_THRESHOLD, LargeBlockBytes);
#endif
}

} // namespace Sonde::MemoryPolicy

// SPDX-License-Identifier: MIT
#include "transport/transport.h"

namespace Sonde {
Transport::~Transport() = default;
} // namespace Sonde

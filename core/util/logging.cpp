// SPDX-License-Identifier: MIT
#include "util/logging.h"

Q_LOGGING_CATEGORY(lcTransport, "sonde.core.transport", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSession, "sonde.core.session", QtWarningMsg)
Q_LOGGING_CATEGORY(lcBreaker, "sonde.breaker", QtWarningMsg)
Q_LOGGING_CATEGORY(lcWire, "sonde.wire", QtWarningMsg)

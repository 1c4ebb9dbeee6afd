// SPDX-License-Identifier: MIT
#pragma once

#include <QLoggingCategory>

// Developer logging, switchable with QT_LOGGING_RULES (e.g. "sonde.core.*=true").
// What the user sees (the transcript, stderr lines) is data, never logging.
Q_DECLARE_LOGGING_CATEGORY(lcTransport)
Q_DECLARE_LOGGING_CATEGORY(lcSession)
// Breaker transitions and strikes (circuitbreaker.cpp).
Q_DECLARE_LOGGING_CATEGORY(lcBreaker)
// What goes over HTTP: each request, answer and stream, with sizes (never the bodies).
Q_DECLARE_LOGGING_CATEGORY(lcWire)

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>

namespace Sonde {

// Arguments for a tool the doctor calls, built from its inputSchema alone: each property's
// default, else its first example, else its first enum value or const, else the simplest
// value its type and bounds allow ("" or minLength letters, the minimum, false, an empty or
// minItems-long array). Required properties always; optional ones only when the schema gives
// a value for them. The server never sees a guess that breaks its own schema: the result is
// checked with JsonSchemaValidator, and `valid` says whether it passed. Pure; any thread.
namespace SchemaArguments {
struct Built
{
    QJsonObject arguments;
    bool valid = false;
};
Built build(const QJsonObject &inputSchema);
// The value of one schema (exposed for the tests).
QJsonValue simplest(const QJsonObject &schema, int depth = 0);
} // namespace SchemaArguments

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace Sonde {

// RFC 9207 §2.4 as MCP 2026-07-28 applies it ("Authorization Response Validation"), before the
// code goes to any token endpoint: a present `iss` must equal the recorded issuer under simple
// string comparison (no case folding, port elision, trailing slash or percent-encoding
// normalisation), whether or not the metadata advertises it; an absent `iss` is refused only
// when the metadata says authorization_response_iss_parameter_supported. Stateless.
class IssuerCheck
{
public:
    // Empty: the response may be used. Else why not, in words.
    static QString problem(bool advertised, bool present, const QString &iss,
                           const QString &recordedIssuer);
};

} // namespace Sonde

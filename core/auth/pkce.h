// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

namespace Sonde {

// PKCE (RFC 7636) with the S256 method, the only one MCP clients use. The verifier is 64
// characters of the unreserved alphabet from the system's random source (QRandomGenerator::
// system: a CSPRNG), 384 bits. Stateless, any thread.
class Pkce
{
public:
    static QByteArray verifier(int length = 64); // 43..128 (RFC 7636 §4.1)
    static QByteArray
    challenge(const QByteArray &verifier); // BASE64URL(SHA256(verifier)), no padding
    // An opaque, unguessable value (the `state`): 32 random bytes, base64url.
    static QByteArray randomToken();
};

} // namespace Sonde

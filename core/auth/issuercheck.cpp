// SPDX-License-Identifier: MIT
#include "auth/issuercheck.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QString IssuerCheck::problem(bool advertised, bool present, const QString &iss,
                             const QString &recordedIssuer)
{
    if (present && iss != recordedIssuer)
        return u"the authorization response came from issuer \"%1\", not \"%2\" (RFC 9207): "
               u"its code is not used"_s.arg(iss, recordedIssuer);
    if (!present && advertised)
        return u"the authorization response has no iss although the authorization server "
               u"advertises authorization_response_iss_parameter_supported (RFC 9207)"_s;
    return {};
}

} // namespace Sonde

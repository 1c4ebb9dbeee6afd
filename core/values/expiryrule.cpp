// SPDX-License-Identifier: MIT
#include "values/expiryrule.h"

#include "util/enumnames.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// In ExpiryRule's order: None is written as nothing.
const char *const ExpiryRuleNames[] = {"",
                                       "http-404-with-session",
                                       "http-400-invalid-session",
                                       "connection-refused",
                                       "transport-closed",
                                       "stream-broken",
                                       "text-marker",
                                       "timeout",
                                       "no-signal",
                                       "cancelled-by-user",
                                       "budget-exhausted"};
} // namespace

QString ExpiryRules::name(ExpiryRule rule)
{
    return enumName(ExpiryRuleNames, rule);
}

std::optional<ExpiryRule> ExpiryRules::fromName(QStringView name)
{
    return enumFromName<ExpiryRule>(ExpiryRuleNames, name);
}

} // namespace Sonde

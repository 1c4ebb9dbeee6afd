// SPDX-License-Identifier: MIT
#include "values/transportdetails.h"

#include "values/jsonfields.h"

namespace Sonde {

QJsonObject TransportDetails::toJson() const
{
    return JsonFields::structJson(*this);
}

TransportDetails TransportDetails::fromJson(const QJsonObject &json)
{
    return JsonFields::structFromJson<TransportDetails>(json);
}

} // namespace Sonde

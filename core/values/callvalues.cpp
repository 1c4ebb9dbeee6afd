// SPDX-License-Identifier: MIT
#include "values/callvalues.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QString CallRequest::progressToken() const
{
    if (method != "tools/call"_L1 || !withProgress)
        return {};
    return u"sonde-%1"_s.arg(ticket);
}

QJsonObject CallOutcome::toJson() const
{
    QJsonObject o{{"server"_L1, server},
                  {"method"_L1, method},
                  {"generation"_L1, generation},
                  {"attempts"_L1, attempts},
                  {"elapsed_ms"_L1, finishedMs - startedMs}};
    if (recovery) {
        const QJsonObject r = recovery->toJson();
        for (auto it = r.begin(); it != r.end(); ++it)
            o.insert(it.key(), it.value());
    }
    if (ok())
        o.insert("result"_L1, result);
    else
        o.insert("error"_L1, error.toJson());
    return o;
}

} // namespace Sonde

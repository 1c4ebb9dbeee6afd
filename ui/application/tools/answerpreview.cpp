// SPDX-License-Identifier: MIT
#include "application/tools/answerpreview.h"

#include "protocol/jsonspan.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<AnswerPreview> AnswerPreview::of(const CallOutcome &o)
{
    // The frame is the answer's only when it carries the call's id (CallOutcome::frame).
    if (o.frame.size() < BigAnswerBytes || !o.result.isObject())
        return std::nullopt;
    AnswerPreview p;
    const std::optional<QByteArray> cut = JsonSpan::shortened(o.frame, CutStringBytes, &p.cutBytes);
    if (!cut)
        return std::nullopt;
    const QJsonObject response = QJsonDocument::fromJson(*cut).object();
    const QJsonValue result = response.value("result"_L1);
    if (!result.isObject() || response.value("id"_L1) != o.requestId)
        return std::nullopt;
    p.result = result;
    p.frameBytes = o.frame.size();
    return p;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transport/transport.h"

#include "protocol/jsonrpcmessage.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {
Transport::~Transport() = default;

Transport::Outgoing Transport::outgoing(const QByteArray &frame)
{
    // Requests carry an id and a method; responses to the server carry an id only.
    if (const auto e = JsonRpcMessage::peekEnvelope(frame))
        return {e->hasMethod ? e->id : QJsonValue(), e->method};
    const QJsonObject o = QJsonDocument::fromJson(frame).object();
    return {o.contains("method"_L1) ? o.value("id"_L1) : QJsonValue(),
            o.value("method"_L1).toString()};
}

bool Transport::answers(const QByteArray &frame, const QJsonValue &id)
{
    if (const auto e = JsonRpcMessage::peekEnvelope(frame))
        return !e->hasMethod && e->id == id;
    const QJsonObject o = QJsonDocument::fromJson(frame).object();
    return !o.contains("method"_L1) && o.value("id"_L1) == id;
}
} // namespace Sonde

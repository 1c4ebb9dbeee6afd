// SPDX-License-Identifier: MIT
#pragma once

#include "transport/fault.h"
#include "values/recoveryvalues.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <variant>

namespace Sonde {

// What sonde-cli can do in a connected session, one struct per kind. An argv command
// (`tools call echo '{}'`) and an `exec` line ({"op": "call", "tool": "echo"}) both become
// one of these (CliStepParser), and StepRunner runs it: the two ways in say a request the
// same way and cannot drift apart. Plain values; equal requests compare equal.

struct InfoStep // argv `info`: the handshake's results and the session (exec has "state")
{
    friend bool operator==(const InfoStep &, const InfoStep &) = default;
};
struct PingStep
{
    friend bool operator==(const PingStep &, const PingStep &) = default;
};
struct ToolsListStep
{
    friend bool operator==(const ToolsListStep &, const ToolsListStep &) = default;
};
struct ToolCallStep
{
    QString tool;
    QJsonObject arguments;
    friend bool operator==(const ToolCallStep &, const ToolCallStep &) = default;
};
struct ResourcesListStep
{
    friend bool operator==(const ResourcesListStep &, const ResourcesListStep &) = default;
};
struct ResourceTemplatesListStep
{
    friend bool operator==(const ResourceTemplatesListStep &,
                           const ResourceTemplatesListStep &) = default;
};
struct ResourceReadStep
{
    QString uri;
    friend bool operator==(const ResourceReadStep &, const ResourceReadStep &) = default;
};
struct ResourceSubscribeStep
{
    QString uri;
    friend bool operator==(const ResourceSubscribeStep &, const ResourceSubscribeStep &) = default;
};
struct ResourceUnsubscribeStep
{
    QString uri;
    friend bool operator==(const ResourceUnsubscribeStep &,
                           const ResourceUnsubscribeStep &) = default;
};
struct PromptsListStep
{
    friend bool operator==(const PromptsListStep &, const PromptsListStep &) = default;
};
struct PromptGetStep
{
    QString name;
    QJsonObject arguments;
    friend bool operator==(const PromptGetStep &, const PromptGetStep &) = default;
};
struct CompleteStep // completion/complete
{
    QJsonObject ref;
    QJsonObject argument;
    std::optional<QJsonObject> context; // sent only when the step gave one
    friend bool operator==(const CompleteStep &, const CompleteStep &) = default;
};
struct SetLogLevelStep // logging/setLevel
{
    QString level;
    friend bool operator==(const SetLogLevelStep &, const SetLogLevelStep &) = default;
};
struct RequestStep // any method, as given: for what has no step of its own
{
    QString method;
    QJsonObject params;
    friend bool operator==(const RequestStep &, const RequestStep &) = default;
};
struct FaultStep // injected on the session's transport (docs/recovery.md)
{
    Fault::Kind kind = Fault::Kind::Clear;
    int ms = 0;
    int status = 0;
    friend bool operator==(const FaultStep &, const FaultStep &) = default;
};
struct ReconnectStep
{
    friend bool operator==(const ReconnectStep &, const ReconnectStep &) = default;
};
struct BreakerStep
{
    BreakerAction action = BreakerAction::Reset;
    friend bool operator==(const BreakerStep &, const BreakerStep &) = default;
};
struct SleepStep
{
    int ms = 0;
    friend bool operator==(const SleepStep &, const SleepStep &) = default;
};
struct NotificationsStep // the notifications received since the last such step
{
    friend bool operator==(const NotificationsStep &, const NotificationsStep &) = default;
};
struct StateStep // the session's snapshot
{
    friend bool operator==(const StateStep &, const StateStep &) = default;
};
struct CancelStep // exec only: cancels the call of a step still running, by its number
{
    int step = 0;
    friend bool operator==(const CancelStep &, const CancelStep &) = default;
};

using CliStep = std::variant<InfoStep, PingStep, ToolsListStep, ToolCallStep, ResourcesListStep,
                             ResourceTemplatesListStep, ResourceReadStep, ResourceSubscribeStep,
                             ResourceUnsubscribeStep, PromptsListStep, PromptGetStep, CompleteStep,
                             SetLogLevelStep, RequestStep, FaultStep, ReconnectStep, BreakerStep,
                             SleepStep, NotificationsStep, StateStep, CancelStep>;

} // namespace Sonde

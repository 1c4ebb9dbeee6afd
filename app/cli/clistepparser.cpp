// SPDX-License-Identifier: MIT
#include "clistepparser.h"

#include "protocol/jsonschemavalidator.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

// The JSON argument of `tools call` and `prompts get`: nothing, or an object.
static std::optional<QJsonObject> wordArguments(const QString &text, QString *error)
{
    if (text.isEmpty())
        return QJsonObject();
    QJsonParseError pe;
    const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = u"arguments must be a JSON object: %1"_s.arg(pe.errorString());
        return std::nullopt;
    }
    if (!d.isObject()) {
        *error = u"arguments must be a JSON object, got another JSON type"_s;
        return std::nullopt;
    }
    return d.object();
}

std::optional<CliStep> CliStepParser::fromWords(const QStringList &c, QString *error)
{
    const QString verb = c.value(0);
    const QString sub = c.value(1);
    auto refuse = [error](const QString &why) -> std::optional<CliStep> {
        *error = why;
        return std::nullopt;
    };
    // The list commands take nothing after their two words.
    auto two = [&](CliStep step) -> std::optional<CliStep> {
        if (c.size() == 2)
            return step;
        return refuse(u"\"%1\" takes 0 word(s) after it, got: %2"_s.arg(c.mid(0, 2).join(u' '),
                                                                        c.join(u' ')));
    };
    if (verb == "info"_L1 || verb == "ping"_L1) {
        if (c.size() != 1)
            return refuse(u"\"%1\" takes nothing after it, got: %2"_s.arg(verb, c.join(u' ')));
        return verb == "info"_L1 ? CliStep(InfoStep{}) : CliStep(PingStep{});
    }
    if (verb == "tools"_L1 && sub == "list"_L1)
        return two(ToolsListStep{});
    if (verb == "resources"_L1 && sub == "list"_L1)
        return two(ResourcesListStep{});
    if (verb == "resources"_L1 && sub == "templates"_L1)
        return two(ResourceTemplatesListStep{});
    if (verb == "prompts"_L1 && sub == "list"_L1)
        return two(PromptsListStep{});
    if ((verb == "tools"_L1 && sub == "call"_L1) || (verb == "prompts"_L1 && sub == "get"_L1)) {
        if (c.size() < 3 || c.size() > 4)
            return refuse(u"usage: %1 %2 NAME [JSON]"_s.arg(verb, sub));
        const std::optional<QJsonObject> args = wordArguments(c.value(3), error);
        if (!args)
            return std::nullopt;
        if (verb == "tools"_L1)
            return ToolCallStep{c[2], *args};
        return PromptGetStep{c[2], *args};
    }
    if (verb == "resources"_L1 && sub == "read"_L1) {
        if (c.size() != 3)
            return refuse(u"usage: resources read URI"_s);
        return ResourceReadStep{c[2]};
    }
    // The commands that are not steps are known too: "exec" here is incomplete, not unknown.
    static const QStringList known = {u"info"_s,    u"ping"_s, u"tools"_s, u"resources"_s,
                                      u"prompts"_s, u"exec"_s, u"auth"_s,  u"conformance-client"_s};
    if (!known.contains(verb))
        return refuse(u"unknown command \"%1\""_s.arg(verb));
    return refuse(u"incomplete or unknown command: %1"_s.arg(c.join(u' ')));
}

std::optional<CliStep> CliStepParser::fromJson(const QJsonObject &step, QString *error)
{
    const QString op = step.value("op"_L1).toString();
    auto refuse = [error](const QString &why) -> std::optional<CliStep> {
        *error = why;
        return std::nullopt;
    };
    // Before the members are checked: a cancel reaches a running call whatever else it has.
    if (op == "cancel"_L1) {
        const QJsonValue target = step.value("step"_L1);
        if (!target.isDouble() || target.toInt() <= 0)
            return refuse(u"cancel needs \"step\": the number of a step still running"_s);
        return CancelStep{target.toInt()};
    }
    // What the step carries for the server is passed as it is or refused: an array or a
    // number where an object belongs must not become {} on the way.
    static const QJsonObject objectMembers = [] {
        QJsonObject properties;
        for (const char *key : {"args", "params", "ref", "argument", "context"})
            properties.insert(QLatin1StringView(key), QJsonObject{{"type"_L1, "object"_L1}});
        return QJsonObject{{"properties"_L1, properties}};
    }();
    if (const auto wrong = JsonSchemaValidator::validate(step, objectMembers); !wrong.isEmpty())
        return refuse(wrong.first().text());
    auto object = [&](const char *key) { return step.value(QLatin1StringView(key)).toObject(); };
    auto text = [&](const char *key) { return step.value(QLatin1StringView(key)).toString(); };
    auto has = [&](const char *key) { return step.value(QLatin1StringView(key)).isString(); };
    if (op == "call"_L1) {
        if (!has("tool"))
            return refuse(u"call needs \"tool\""_s);
        return ToolCallStep{text("tool"), object("args")};
    }
    if (op == "tools/list"_L1)
        return ToolsListStep{};
    if (op == "resources/list"_L1)
        return ResourcesListStep{};
    if (op == "resources/templates/list"_L1)
        return ResourceTemplatesListStep{};
    if (op == "prompts/list"_L1)
        return PromptsListStep{};
    if (op == "ping"_L1)
        return PingStep{};
    if (op == "resources/read"_L1 || op == "resources/subscribe"_L1 ||
        op == "resources/unsubscribe"_L1) {
        if (!has("uri"))
            return refuse(u"%1 needs \"uri\""_s.arg(op));
        if (op == "resources/read"_L1)
            return ResourceReadStep{text("uri")};
        if (op == "resources/subscribe"_L1)
            return ResourceSubscribeStep{text("uri")};
        return ResourceUnsubscribeStep{text("uri")};
    }
    if (op == "prompts/get"_L1) {
        if (!has("name"))
            return refuse(u"prompts/get needs \"name\""_s);
        return PromptGetStep{text("name"), object("args")};
    }
    if (op == "complete"_L1) {
        CompleteStep s{object("ref"), object("argument"), std::nullopt};
        if (step.contains("context"_L1))
            s.context = object("context");
        return s;
    }
    if (op == "logging/setLevel"_L1)
        return SetLogLevelStep{step.value("level"_L1).toString(u"info"_s)};
    if (op == "request"_L1) {
        if (!has("method"))
            return refuse(u"request needs \"method\""_s);
        return RequestStep{text("method"), object("params")};
    }
    if (op == "fault"_L1) {
        const auto kind = Fault::parseKind(text("kind"));
        if (!kind)
            return refuse(u"unknown fault kind \"%1\" (%2)"_s.arg(text("kind"), Fault::nameList()));
        return FaultStep{*kind, step.value("ms"_L1).toInt(), step.value("status"_L1).toInt()};
    }
    if (op == "reconnect"_L1)
        return ReconnectStep{};
    if (op == "breaker"_L1) {
        const std::optional<BreakerAction> action = enumFromName<BreakerAction>(text("action"));
        if (!action)
            return refuse(u"breaker action must be \"reset\" or \"trip\""_s);
        return BreakerStep{*action};
    }
    if (op == "sleep"_L1)
        return SleepStep{std::clamp(step.value("ms"_L1).toInt(0), 0, 3'600'000)};
    if (op == "notifications"_L1)
        return NotificationsStep{};
    if (op == "state"_L1)
        return StateStep{};
    return refuse(u"unknown op \"%1\""_s.arg(op));
}

} // namespace Sonde

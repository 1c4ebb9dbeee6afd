// SPDX-License-Identifier: MIT
#include "recovery/replaypolicy.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

bool ReplayPolicy::isReadMethod(const QString &method)
{
    static const QStringList reads = {
        u"tools/list"_s,   u"resources/list"_s, u"resources/templates/list"_s, u"resources/read"_s,
        u"prompts/list"_s, u"prompts/get"_s,    u"completion/complete"_s,      u"ping"_s};
    return reads.contains(method);
}

QString ReplayPolicy::sourceName(Source source)
{
    return enumName(source);
}

std::optional<ReplayPolicy::Verdict> ReplayPolicy::transportVerdict(ExpiryRule rule, bool toolCall,
                                                                    bool diedAfterWrite)
{
    // A session refused at the HTTP layer (404 for our id, or the SDK servers' 400) means the
    // server never ran the request: like a call to a dead process, it is sent once more.
    if (rule == ExpiryRule::ConnectionRefused)
        return Verdict{
            true, Source::Transport,
            u"the server refused the connection, so the request never reached it: sent once it is back"_s};
    if (rule == ExpiryRule::Http404WithSession || rule == ExpiryRule::Http400InvalidSession)
        return Verdict{
            true, Source::Transport,
            u"the server refused the session before running the request: sent again once"_s};
    if (toolCall && diedAfterWrite)
        return Verdict{
            false, Source::Transport,
            u"the server process went away after the request was written: never replayed"_s};
    return std::nullopt;
}

ReplayPolicy::Verdict ReplayPolicy::verdict(const QString &method, const QString &toolName,
                                            const QJsonObject &tool) const
{
    if (method != "tools/call"_L1) {
        if (isReadMethod(method))
            return {true, Source::Method, u"%1 only reads: it is sent again once"_s.arg(method)};
        return {false, Source::Method, u"%1 may change state: it is not sent again"_s.arg(method)};
    }
    if (const auto it = m_overrides.constFind(toolName); it != m_overrides.constEnd()) {
        return {it.value(), Source::UserOverride,
                it.value() ? u"marked read-only by the user"_s
                           : u"marked write-capable by the user"_s};
    }
    const QJsonValue hint = tool.value("annotations"_L1).toObject().value("readOnlyHint"_L1);
    if (hint.isBool() && hint.toBool())
        return {true, Source::ServerHint, u"the server says readOnlyHint: true"_s};
    if (hint.isBool())
        return {false, Source::ServerHint, u"the server says readOnlyHint: false"_s};
    if (!hint.isUndefined() && !hint.isNull())
        return {false, Source::Default,
                u"readOnlyHint is not the JSON boolean true: treated as write-capable"_s};
    return {false, Source::Default, u"no readOnlyHint: treated as write-capable"_s};
}

} // namespace Sonde

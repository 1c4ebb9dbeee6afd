// SPDX-License-Identifier: MIT
#include "application/tools/recoverytext.h"

#include <QCoreApplication>
#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Sonde::RecoveryText {

static QString tr(const char *text)
{
    return QCoreApplication::translate("RecoveryText", text);
}

QString ruleInWords(ExpiryRule rule)
{
    switch (rule) {
    case ExpiryRule::Http404WithSession:
        return tr("the server answered HTTP 404 for the session: it had ended");
    case ExpiryRule::Http400InvalidSession:
        return tr("the server answered HTTP 400 \"no valid session\" (how the official SDK "
                  "servers say the session ended)");
    case ExpiryRule::ConnectionRefused:
        return tr("the server refused the connection (it was down or restarting)");
    case ExpiryRule::TransportClosed:
        return tr("the connection closed while the call was out");
    case ExpiryRule::StreamBroken:
        return tr("the call's response stream broke before its answer");
    case ExpiryRule::TextMarker:
        return tr("the server's answer said the session was gone");
    case ExpiryRule::Timeout:
        return tr("no answer came in time");
    case ExpiryRule::NoSignal:
        return tr("nothing said the session was lost");
    case ExpiryRule::CancelledByUser:
        return tr("you cancelled it");
    case ExpiryRule::BudgetExhausted:
        return tr("the error was too large to read whole");
    case ExpiryRule::None:
        break;
    }
    return {};
}

QString ruleInWords(const QString &rule)
{
    const std::optional<ExpiryRule> known = ExpiryRules::fromName(rule);
    return known && *known != ExpiryRule::None ? ruleInWords(*known) : rule;
}

static QString kindInWords(Error::Kind kind)
{
    switch (kind) {
    case Error::Kind::Transport:
        return tr("Connection error");
    case Error::Kind::Protocol:
        return tr("Protocol error");
    case Error::Kind::Timeout:
        return tr("Timed out");
    case Error::Kind::Remote:
        return tr("The server answered with an error");
    case Error::Kind::Injected:
        return tr("Injected fault");
    default:
        return tr("Error");
    }
}

Banner forAnswer(const CallOutcome &o, const QString &reconnectNote)
{
    Banner b;
    const std::optional<CallRecovery> &r = o.recovery;
    const ExpiryRule typed = r ? r->rule : ExpiryRule::None;
    const QString rule = ExpiryRules::name(typed);
    if (r && r->outcomeUncertain.value_or(false)) {
        b.tone = Banner::Tone::Uncertain;
        // The core's message names the rule for logs and transcripts; here it is said in words.
        QString message = o.error.message();
        if (!rule.isEmpty())
            message.replace(u'(' + rule + u')', u'(' + ruleInWords(typed) + u')');
        b.text = tr("Outcome uncertain — %1").arg(message);
        b.toolTip = tr("rule: %1 (%2)").arg(rule, ruleInWords(typed));
        return b;
    }
    if (o.error.kind() == Error::Kind::Refused) {
        b.tone = Banner::Tone::Refused;
        b.text = tr("Not sent — %1").arg(o.error.message());
        return b;
    }
    if (o.error.kind() == Error::Kind::Application) {
        b.tone = Banner::Tone::Error;
        b.text = tr("The tool reported an error (isError)");
        return b;
    }
    if (o.error.kind() == Error::Kind::Cancelled) {
        // "cancelled error — cancelled by the user" said it twice.
        const QString why = o.error.message();
        b.tone = Banner::Tone::Error;
        b.text = why.contains("by the user"_L1) || why.isEmpty() ? tr("Cancelled by you")
                                                                 : tr("Cancelled — %1").arg(why);
        return b;
    }
    if (!o.ok()) {
        b.tone = Banner::Tone::Error;
        b.text = tr("%1 — %2").arg(kindInWords(o.error.kind()), o.error.message());
        if (!rule.isEmpty())
            b.toolTip = tr("rule: %1 (%2)").arg(rule, ruleInWords(typed));
        return b;
    }
    if (r && r->replayed) {
        b.tone = Banner::Tone::Good;
        b.text = tr("Sent again on generation %1, and answered: %2.")
                     .arg(o.generation)
                     .arg(ruleInWords(typed));
        // Why that was safe, in the terms of the verdict: a write is sent again only when the
        // first one never ran, and the tool line above says the tool is never replayed.
        if (r->verdict) {
            if (r->verdict->source == ReplaySource::Transport)
                b.text +=
                    u' ' +
                    tr("Safe for any tool: the first call never ran (%1).").arg(r->verdict->reason);
            else
                b.text += u' ' + tr("Safe: %1.").arg(r->verdict->reason);
        }
        b.toolTip = tr("rule: %1; verdict from: %2")
                        .arg(rule, r->verdict ? enumName(r->verdict->source) : QString());
        return b;
    }
    if (!reconnectNote.isEmpty()) {
        b.tone = Banner::Tone::Good;
        b.text = reconnectNote;
    }
    return b;
}

QString reconnectBefore(const SessionSnapshot &s, const CallOutcome &o)
{
    if (!s.recovery || o.generation <= 1 || !o.ok())
        return {};
    if (o.recovery && (o.recovery->replayed || o.recovery->generations.size() > 1))
        return {}; // recovered during the call: its own banner says so
    const QList<HistoryEvent> &h = s.recovery->history;
    for (qsizetype i = h.size() - 1; i >= 0; --i) {
        const HistoryEvent &e = h[i];
        const auto *reconnect = e.as<HistoryEvent::Reconnect>();
        if (!reconnect || reconnect->toGeneration != o.generation)
            continue;
        if (e.timeMs > o.startedMs)
            return {};
        // Why it reconnected: the classification just before, and a fault that caused it.
        QString why = reconnect->trigger;
        QString fault;
        for (qsizetype j = i - 1; j >= 0; --j) {
            const HistoryEvent &before = h[j];
            if (before.as<HistoryEvent::Reconnect>())
                break;
            if (const auto *c = before.as<HistoryEvent::Classification>();
                c && c->expired && why == reconnect->trigger)
                why = ruleInWords(c->rule) +
                      (c->source ? tr(" (noticed %1)").arg(*c->source) : QString());
            if (const auto *f = before.as<HistoryEvent::Fault>(); f && fault.isEmpty())
                fault = f->description;
        }
        QString text =
            tr("Answered on generation %1. Sonde had reconnected before this call, at %2: %3.")
                .arg(o.generation)
                .arg(QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(u"HH:mm:ss.zzz"_s), why);
        if (!fault.isEmpty())
            text += u' ' + tr("(The fault %1 you injected caused it.)").arg(fault);
        return text;
    }
    return {};
}

} // namespace Sonde::RecoveryText

// SPDX-License-Identifier: MIT
#include "recovery/sessionexpiryclassifier.h"

#include "protocol/error.h"

#include <QList>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Sonde {

const QStringList &SessionExpiryClassifier::textMarkers()
{
    static const QStringList markers = {
        u"invalid or expired session"_s, u"expired session"_s, u"session expired"_s,
        u"session not found"_s,          u"unknown session"_s, u"session terminated"_s,
        u"closedresourceerror"_s,        u"closed resource"_s, u"transport is closed"_s,
        u"connection closed"_s,          u"broken pipe"_s,     u"end of file"_s};
    return markers;
}

static bool saysInvalidSession(const Error &e)
{
    // server-everything: {"code":-32000,"message":"Bad Request: No valid session ID provided"}
    const QString text = e.message().toLower();
    return text.contains("session"_L1) &&
           (text.contains("no valid"_L1) || text.contains("invalid"_L1) ||
            text.contains("not found"_L1) || text.contains("unknown"_L1) ||
            text.contains("expired"_L1));
}

// A request that was written: what its own answer (or the lack of one) says, the top node
// only. A refused connection or a text somewhere in the chain belongs to another exchange.
static SessionExpiryClassifier::Result
classifyWritten(const Error &e, SessionExpiryClassifier::Result r, bool modern)
{
    const int status = e.httpStatus().value_or(0);
    if (!modern && status == 404 && !e.sessionId().isEmpty()) {
        r.expired = true;
        r.rule = ExpiryRule::Http404WithSession;
        r.detail = u"HTTP 404 for a request that carried Mcp-Session-Id"_s;
    } else if (!modern && status == 400 && !e.sessionId().isEmpty() && saysInvalidSession(e)) {
        r.expired = true;
        r.rule = ExpiryRule::Http400InvalidSession;
        r.detail =
            u"HTTP 400 saying the session id is not valid (a known deviation of the official SDK servers)"_s;
    } else if (e.kind() == Error::Kind::Transport && e.condition() == Error::Condition::Closed) {
        r.expired = true;
        r.rule = modern ? ExpiryRule::StreamBroken : ExpiryRule::TransportClosed;
        r.detail = u"the connection closed after the request was written, before its answer"_s;
    } else {
        r.rule = ExpiryRule::NoSignal;
    }
    return r;
}

SessionExpiryClassifier::Result SessionExpiryClassifier::classify(const Error &error,
                                                                  int nodeBudget, Era era)
{
    // Collect the visited nodes first (pre-order: node, group children, cause), without
    // recursion; the rules below then look at exactly what was visited.
    QList<const Error *> visited;
    QSet<const Error *> seen;
    QList<const Error *> stack{&error};
    Result r;
    while (!stack.isEmpty()) {
        if (visited.size() >= nodeBudget) {
            r.budgetExhausted = true;
            break;
        }
        const Error *node = stack.takeLast();
        if (!node || seen.contains(node))
            continue;
        seen.insert(node);
        visited.append(node);
        // Pushed in reverse so the pops go: children in order, then the cause.
        if (node->cause())
            stack.append(node->cause());
        for (qsizetype i = node->children().size() - 1; i >= 0; --i)
            stack.append(&node->children()[i]);
    }
    r.nodesVisited = int(visited.size());

    for (const Error *e : std::as_const(visited)) {
        if (e->kind() == Error::Kind::Cancelled) {
            r.rule = ExpiryRule::CancelledByUser;
            r.detail = u"a user cancellation overrides every other signal"_s;
            return r;
        }
    }
    const bool modern = era == Era::Rev20260728;
    // The request's own reach, when its transport said it, decides before any node of the
    // chain: a failure of another exchange about the request (its resumption, a token
    // refresh) is only the cause, and must not make a request that was sent look unsent.
    switch (error.reach()) {
    case Error::Reach::ResponseStarted:
        if (error.kind() != Error::Kind::Transport)
            break; // an answer over the limit, say: that request fails, nothing more
        r.expired = true;
        r.rule = modern ? ExpiryRule::StreamBroken : ExpiryRule::TransportClosed;
        r.detail =
            u"the server had begun answering the request when its stream failed, so it may have run: %1"_s
                .arg(error.message());
        return r;
    case Error::Reach::Written:
        return classifyWritten(error, r, modern);
    case Error::Reach::NotWritten:
    case Error::Reach::Unknown:
        break;
    }
    for (const Error *e : std::as_const(visited)) {
        const int status = e->httpStatus().value_or(0);
        if (modern) {
            if (e->kind() == Error::Kind::Transport && e->condition() == Error::Condition::Closed) {
                r = {
                    true, ExpiryRule::StreamBroken,
                    u"the response stream broke before the answer (2026-07-28: the request is lost; the client sends it again with a new id)"_s,
                    r.nodesVisited, r.budgetExhausted};
                return r;
            }
            if (e->kind() == Error::Kind::Transport &&
                e->condition() == Error::Condition::Refused) {
                r = {true, ExpiryRule::ConnectionRefused,
                     u"the server refused the connection: the request was never sent"_s,
                     r.nodesVisited, r.budgetExhausted};
                return r;
            }
            continue;
        }
        if (status == 404 && !e->sessionId().isEmpty()) {
            r = {true, ExpiryRule::Http404WithSession,
                 u"HTTP 404 for a request that carried Mcp-Session-Id"_s, r.nodesVisited,
                 r.budgetExhausted};
            return r;
        }
        if (status == 400 && !e->sessionId().isEmpty() && saysInvalidSession(*e)) {
            r = {
                true, ExpiryRule::Http400InvalidSession,
                u"HTTP 400 saying the session id is not valid (a known deviation of the official SDK servers)"_s,
                r.nodesVisited, r.budgetExhausted};
            return r;
        }
        if (e->kind() == Error::Kind::Transport && e->condition() == Error::Condition::Refused) {
            // A server restarting (a deploy, a crash loop): its sessions are gone with it, and
            // the request never reached it.
            r = {true, ExpiryRule::ConnectionRefused,
                 u"the server refused the connection: the request was never sent"_s, r.nodesVisited,
                 r.budgetExhausted};
            return r;
        }
        if (e->kind() == Error::Kind::Transport && e->condition() == Error::Condition::Closed) {
            r = {true, ExpiryRule::TransportClosed,
                 u"the transport closed while the request was outstanding"_s, r.nodesVisited,
                 r.budgetExhausted};
            return r;
        }
    }
    for (const Error *e : std::as_const(visited)) {
        const QString text = e->message().toLower();
        if (text.isEmpty() || modern)
            continue;
        for (const QString &marker : textMarkers()) {
            if (text.contains(marker)) {
                r = {true, ExpiryRule::TextMarker, u"matched by text marker '%1'"_s.arg(marker),
                     r.nodesVisited, r.budgetExhausted};
                return r;
            }
        }
    }
    r.rule = r.budgetExhausted ? ExpiryRule::BudgetExhausted : ExpiryRule::NoSignal;
    return r;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "protocol/error.h"

#include "util/enumnames.h"

#include <QJsonArray>

namespace Sonde {

Error::Error(Kind kind, QString message) : m_kind(kind), m_message(std::move(message))
{
}

Error Error::transport(QString message, Condition condition)
{
    Error e(Kind::Transport, std::move(message));
    e.m_condition = condition;
    return e;
}

Error Error::protocol(QString message)
{
    return Error(Kind::Protocol, std::move(message));
}
Error Error::timeout(QString message)
{
    return Error(Kind::Timeout, std::move(message));
}
Error Error::application(QString message)
{
    return Error(Kind::Application, std::move(message));
}
Error Error::cancelled(QString message)
{
    return Error(Kind::Cancelled, std::move(message));
}

Error Error::remote(int code, QString message, QJsonValue data)
{
    Error e(Kind::Remote, std::move(message));
    e.m_jsonRpcCode = code;
    e.m_data = std::move(data);
    return e;
}

Error &Error::addChild(const Error &child)
{
    m_children.append(child);
    return *this;
}

Error &Error::setCause(const Error &cause)
{
    m_cause = std::make_shared<Error>(cause);
    return *this;
}

Error::~Error()
{
    std::shared_ptr<Error> next = std::move(m_cause);
    while (next && next.use_count() == 1) {
        std::shared_ptr<Error> after = std::move(next->m_cause);
        next = std::move(after);
    }
}

QString Error::kindName(Kind kind)
{
    // In the order of Error::Kind.
    static const char *const names[] = {"none",        "transport", "protocol", "timeout", "remote",
                                        "application", "cancelled", "injected", "refused"};
    const QString name = enumName(names, kind);
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

QString Error::reachName(Reach reach)
{
    // In the order of Error::Reach.
    static const char *const names[] = {"unknown", "not-written", "written", "response-started"};
    return enumName(names, reach);
}

static QJsonObject nodeJson(const Error &e, int &budget)
{
    QJsonObject o;
    o.insert(QStringLiteral("kind"), Error::kindName(e.kind()));
    o.insert(QStringLiteral("message"), e.message());
    if (e.reach() != Error::Reach::Unknown)
        o.insert(QStringLiteral("reach"), Error::reachName(e.reach()));
    if (e.httpStatus())
        o.insert(QStringLiteral("http_status"), *e.httpStatus());
    if (e.jsonRpcCode())
        o.insert(QStringLiteral("code"), *e.jsonRpcCode());
    if (!e.sessionId().isEmpty())
        o.insert(QStringLiteral("session_id"), e.sessionId());
    if (!e.data().isUndefined() && !e.data().isNull())
        o.insert(QStringLiteral("data"), e.data());
    if (!e.children().isEmpty() && budget > 0) {
        QJsonArray kids;
        for (const Error &child : e.children()) {
            if (--budget < 0)
                break;
            kids.append(nodeJson(child, budget));
        }
        o.insert(QStringLiteral("children"), kids);
    }
    return o;
}

QJsonObject Error::toJson(int maxDepth) const
{
    // Build the chain top-down into a list, then nest bottom-up: no recursion on the cause.
    QList<QJsonObject> chain;
    int budget = maxDepth;
    const Error *node = this;
    while (node && budget-- > 0) {
        chain.append(nodeJson(*node, budget));
        node = node->cause();
    }
    if (node)
        chain.last().insert(QStringLiteral("cause_truncated"), true);
    for (qsizetype i = chain.size() - 1; i > 0; --i)
        chain[i - 1].insert(QStringLiteral("cause"), chain[i]);
    return chain.isEmpty() ? QJsonObject{} : chain.first();
}

} // namespace Sonde

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

namespace {
// In the order of Error::Kind and Error::Reach.
const char *const KindNames[] = {"none",        "transport", "protocol", "timeout", "remote",
                                 "application", "cancelled", "injected", "refused"};
const char *const ReachNames[] = {"unknown", "not-written", "written", "response-started"};
} // namespace

QString Error::kindName(Kind kind)
{
    const QString name = enumName(KindNames, kind);
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

Error::Kind Error::kindFromName(QStringView name)
{
    return enumFromName<Kind>(KindNames, name).value_or(Kind::None);
}

QString Error::reachName(Reach reach)
{
    return enumName(ReachNames, reach);
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

Error Error::fromJson(const QJsonObject &o)
{
    // The cause chain is read as toJson wrote it, nested, and built bottom-up: no recursion
    // on the cause here either.
    QList<QJsonObject> chain;
    for (QJsonObject node = o; !node.isEmpty();
         node = node.value(QStringLiteral("cause")).toObject())
        chain.append(node);
    Error e;
    for (qsizetype i = chain.size() - 1; i >= 0; --i) {
        const QJsonObject &n = chain[i];
        Error node(kindFromName(n.value(QStringLiteral("kind")).toString()),
                   n.value(QStringLiteral("message")).toString());
        node.m_reach = enumFromName<Reach>(ReachNames, n.value(QStringLiteral("reach")).toString())
                           .value_or(Reach::Unknown);
        if (n.contains(QStringLiteral("http_status")))
            node.m_httpStatus = n.value(QStringLiteral("http_status")).toInt();
        if (n.contains(QStringLiteral("code")))
            node.m_jsonRpcCode = n.value(QStringLiteral("code")).toInt();
        node.m_sessionId = n.value(QStringLiteral("session_id")).toString();
        node.m_data = n.value(QStringLiteral("data"));
        for (const QJsonValue &child : n.value(QStringLiteral("children")).toArray())
            node.m_children.append(fromJson(child.toObject()));
        if (i < chain.size() - 1)
            node.setCause(e);
        e = std::move(node);
    }
    return e;
}

} // namespace Sonde

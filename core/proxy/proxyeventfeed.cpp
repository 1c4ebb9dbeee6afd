// SPDX-License-Identifier: MIT
#include "proxy/proxyeventfeed.h"

#include "proxy/proxysession.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

ProxyEventFeed::ProxyEventFeed(ProxySession &session, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(&session, &ProxySession::frameSeen, this,
            [this](bool fromClient, const QByteArray &frame) {
                add({m_session.clock().nowMs(), m_session.generation(), fromClient ? 0 : 1, frame});
            });
    connect(&session, &ProxySession::faultActed, this,
            [this](int id, ProxyFault::Kind kind, const QString &detail) {
                const QJsonObject o{{u"event"_s, u"fault"_s},
                                    {u"id"_s, id},
                                    {u"kind"_s, ProxyFault::info(kind).name},
                                    {u"detail"_s, detail},
                                    {u"t_ms"_s, m_session.clock().nowMs()},
                                    {u"gen"_s, m_session.generation()}};
                add({m_session.clock().nowMs(), m_session.generation(), 2,
                     QJsonDocument(o).toJson(QJsonDocument::Compact)});
            });
    connect(&session.judge(), &ClientJudge::judged, this, [this](const ProxyVerdict &v) {
        QJsonObject o{{u"event"_s, u"verdict"_s},
                      {u"id"_s, v.faultId},
                      {u"kind"_s, ProxyFault::info(v.kind).name},
                      {u"state"_s, ProxyVerdict::stateName(v.state)},
                      {u"summary"_s, v.summary},
                      {u"t_ms"_s, m_session.clock().nowMs()},
                      {u"gen"_s, m_session.generation()}};
        if (v.afterMs >= 0)
            o.insert(u"after_ms"_s, v.afterMs);
        add({m_session.clock().nowMs(), m_session.generation(), 2,
             QJsonDocument(o).toJson(QJsonDocument::Compact)});
    });
}

ProxyEventFeed::~ProxyEventFeed() = default;

QJsonObject ProxyEventFeed::hello(const QString &serverLabel, qint64 pid) const
{
    QJsonArray faults;
    for (const ProxyFault::Info &i : ProxyFault::all()) {
        if (m_session.http() ? i.http : i.stdio)
            faults.append(QJsonObject{{u"kind"_s, i.name}, {u"description"_s, i.description}});
    }
    return QJsonObject{{u"ok"_s, true},
                       {u"op"_s, u"watch"_s},
                       {u"pid"_s, pid},
                       {u"transport"_s, m_session.http() ? u"http"_s : u"stdio"_s},
                       {u"server"_s, serverLabel},
                       {u"client"_s, m_session.clientName()},
                       {u"generation"_s, m_session.generation()},
                       {u"faults"_s, faults}};
}

QList<QByteArray> ProxyEventFeed::backlog() const
{
    QList<QByteArray> lines;
    lines.reserve(qsizetype(m_events.size()));
    for (const Event &e : m_events)
        lines.append(lineOf(e));
    return lines;
}

void ProxyEventFeed::add(Event e)
{
    if (receivers(SIGNAL(line(QByteArray))) > 0)
        Q_EMIT line(lineOf(e));
    m_events.push_back(std::move(e));
    if (qsizetype(m_events.size()) > MaxBacklog)
        m_events.pop_front();
}

QByteArray ProxyEventFeed::lineOf(const Event &e) const
{
    if (e.kind == 2)
        return e.data + '\n';
    const QJsonObject o{{u"event"_s, u"frame"_s},
                        {u"from"_s, e.kind == 0 ? u"client"_s : u"server"_s},
                        {u"t_ms"_s, e.tMs},
                        {u"gen"_s, e.generation},
                        {u"client"_s, m_session.clientName()},
                        {u"frame"_s, QString::fromUtf8(e.data)}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace Sonde

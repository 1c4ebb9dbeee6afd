// SPDX-License-Identifier: MIT
#include "session/listfetcher.h"

#include "protocol/mcp.h"

using namespace Qt::StringLiterals;

namespace Sonde {

ListFetcher::ListFetcher(QString method, QString label, QJsonObject params, bool followPages,
                         Limits limits)
    : m_method(std::move(method)), m_key(Mcp::listKeyFor(m_method)), m_label(std::move(label)),
      m_params(std::move(params)), m_followPages(followPages), m_limits(limits)
{
}

QJsonObject ListFetcher::pageParams() const
{
    QJsonObject params = m_params;
    if (!m_cursor.isEmpty())
        params.insert("cursor"_L1, m_cursor);
    return params;
}

ListFetcher::Step ListFetcher::addPage(const QJsonObject &page)
{
    ++m_pages;
    m_lastPage = page;
    const QJsonValue items = page.value(m_key);
    if (!items.isArray() && !items.isUndefined())
        return stop(u"%1 answer: \"%2\" is not an array"_s.arg(m_label, m_key));
    for (const QJsonValue &v : items.toArray())
        m_items.append(v);
    const QString next = page.value("nextCursor"_L1).toString();
    if (next.isEmpty() || !m_followPages)
        return Step::Done;
    if (m_cursors.contains(next) || m_pages >= m_limits.maxPages)
        return stop(
            u"%1: the server repeated cursor \"%2\" (or sent over %3 pages); stopped following it"_s
                .arg(m_label, next)
                .arg(m_limits.maxPages));
    if (m_limits.maxItems >= 0 && m_items.size() >= m_limits.maxItems)
        return stop(u"%1: the server sent over %2 items; stopped following nextCursor"_s.arg(
            m_label, QString::number(m_limits.maxItems)));
    m_cursors.insert(next);
    m_cursor = next;
    return Step::NextPage;
}

ListFetcher::Step ListFetcher::stop(const QString &why)
{
    m_error = Error::protocol(why);
    return Step::Stopped;
}

QJsonObject ListFetcher::result() const
{
    QJsonObject merged = m_lastPage;
    merged.insert(m_key, m_items);
    merged.insert("pages"_L1, m_pages);
    const QString next = m_lastPage.value("nextCursor"_L1).toString();
    if (!m_followPages && !next.isEmpty())
        merged.insert("nextCursor"_L1, next);
    else
        merged.remove("nextCursor"_L1);
    return merged;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>

namespace Sonde {

// Follows nextCursor through one paginated MCP list (tools/list, resources/list,
// resources/templates/list, prompts/list): gathers the items of every page in order and says
// whether to ask for another. It stops with a protocol Error, keeping what came, when the
// server repeats a cursor (following it would loop forever), goes past the page or item
// limit, or answers with a list that is not an array. It sends nothing itself: its owner
// sends a request with pageParams() and feeds the answer to addPage(). ServerSession keeps
// one per list call of a user and one per refresh of its own list cache. A value; thread:
// its owner's.
class ListFetcher
{
public:
    struct Limits
    {
        int maxPages = 10'000;
        qsizetype maxItems = -1; // no limit
    };
    enum class Step
    {
        NextPage, // send another request with pageParams()
        Done,     // the list is complete (or one page was asked for): result()
        Stopped,  // the server misbehaved: error() says how; items() has what came before
    };

    ListFetcher() = default;
    // `label` starts the error messages ("tools/list", "tools/list refresh"). With
    // `followPages` false, one page is fetched and its nextCursor handed back in result().
    ListFetcher(QString method, QString label, QJsonObject params, bool followPages, Limits limits);

    QString method() const { return m_method; }
    QJsonObject pageParams() const;
    Step addPage(const QJsonObject &page);

    const QJsonArray &items() const { return m_items; }
    int pages() const { return m_pages; }
    const Error &error() const { return m_error; }
    // After Done: the last page with every item under the list's key, "pages", and
    // nextCursor only when pages are not followed.
    QJsonObject result() const;

private:
    Step stop(const QString &why);

    QString m_method;
    QString m_key; // where the page holds its items: "tools", "resourceTemplates", ...
    QString m_label;
    QJsonObject m_params;
    bool m_followPages = true;
    Limits m_limits;

    QJsonArray m_items;
    QSet<QString> m_cursors; // every cursor followed so far
    QString m_cursor;        // the next page's
    QJsonObject m_lastPage;
    int m_pages = 0;
    Error m_error;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptfilterproxymodel.h"

#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"

using namespace Qt::StringLiterals;

namespace Sonde {

TranscriptFilterProxyModel::TranscriptFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent), m_directions(0)
{
    for (Direction d : allDirections())
        m_directions |= bit(d);
}

void TranscriptFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    m_transcript = qobject_cast<TranscriptModel *>(sourceModel);
    QSortFilterProxyModel::setSourceModel(sourceModel);
}

QList<TranscriptFilterProxyModel::Direction> TranscriptFilterProxyModel::allDirections()
{
    return {Direction::Outgoing, Direction::Incoming, Direction::Stderr, Direction::Lifecycle,
            Direction::Violation};
}

void TranscriptFilterProxyModel::setServerFilter(const QString &server)
{
    if (server == m_server)
        return;
    m_server = server;
    invalidateFilter();
}

QList<TranscriptFilterProxyModel::Direction> TranscriptFilterProxyModel::directions() const
{
    QList<Direction> out;
    for (Direction d : allDirections())
        if (m_directions & bit(d))
            out.append(d);
    return out;
}

void TranscriptFilterProxyModel::setDirections(const QList<Direction> &directions)
{
    unsigned mask = 0;
    for (Direction d : directions)
        mask |= bit(d);
    if (mask == m_directions)
        return;
    m_directions = mask;
    invalidateFilter();
}

void TranscriptFilterProxyModel::setDirectionVisible(Direction direction, bool visible)
{
    const unsigned mask = visible ? m_directions | bit(direction) : m_directions & ~bit(direction);
    if (mask == m_directions)
        return;
    m_directions = mask;
    invalidateFilter();
}

bool TranscriptFilterProxyModel::isDirectionVisible(Direction direction) const
{
    return m_directions & bit(direction);
}

void TranscriptFilterProxyModel::setMethodFilter(const QString &method)
{
    if (method == m_method)
        return;
    m_method = method;
    invalidateFilter();
}

void TranscriptFilterProxyModel::setTextFilter(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    bool ascii = true;
    for (const QChar c : text)
        ascii = ascii && c.unicode() < 0x80;
    m_textLatin1 = ascii ? text.toLatin1() : QByteArray();
    invalidateFilter();
}

QList<int> TranscriptFilterProxyModel::visibleStoreRows() const
{
    QList<int> rows;
    const int n = rowCount();
    rows.reserve(n);
    for (int i = 0; i < n; ++i)
        rows.append(mapToSource(index(i, 0)).row());
    return rows;
}

bool TranscriptFilterProxyModel::filterAcceptsRow(int sourceRow,
                                                  const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || !m_transcript || !m_transcript->store())
        return true;
    const TranscriptStore &store = *m_transcript->store();
    if (sourceRow < 0 || sourceRow >= store.size())
        return true;
    const TranscriptEvent &e = store.event(sourceRow);
    const TranscriptStore::Entry &entry = store.entry(sourceRow);

    if (!(m_directions & bit(e.direction)))
        return false;
    if (!m_server.isEmpty() && e.server != m_server)
        return false;
    if (!m_method.isEmpty()) {
        bool match = entry.method.contains(m_method, Qt::CaseInsensitive);
        if (!match && entry.isResponse && entry.pairedRow >= 0)
            match = store.entry(entry.pairedRow).method.contains(m_method, Qt::CaseInsensitive);
        if (!match)
            return false;
    }
    if (!m_text.isEmpty() && !entry.summary.contains(m_text, Qt::CaseInsensitive)) {
        // ASCII text is searched in the raw bytes directly; an ASCII needle cannot match inside
        // a UTF-8 sequence, so reading the bytes as Latin-1 is exact here and avoids decoding
        // every frame on every keystroke.
        if (!m_textLatin1.isEmpty())
            return QLatin1StringView(e.raw).contains(QLatin1StringView(m_textLatin1),
                                                     Qt::CaseInsensitive);
        return QString::fromUtf8(e.raw).contains(m_text, Qt::CaseInsensitive);
    }
    return true;
}

} // namespace Sonde

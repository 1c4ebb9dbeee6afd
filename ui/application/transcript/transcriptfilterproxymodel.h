// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

#include <QList>
#include <QSortFilterProxyModel>

namespace Sonde {

class TranscriptModel;

// The transcript as the user narrows it: by server, by direction, by method and by free
// text. Filtering reads the store's precomputed entries (no JSON parsing per row), so it
// stays cheap at the store's full capacity. Its source must be a TranscriptModel; any other
// source passes every row. Thread: GUI. Owned by the view's owner; does not own its source.
class TranscriptFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using Direction = TranscriptEvent::Direction;

    explicit TranscriptFilterProxyModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *sourceModel) override;

    // Exact server name; empty shows every server.
    QString serverFilter() const { return m_server; }
    void setServerFilter(const QString &server);

    // The directions shown, exactly (an empty list hides everything); all by default.
    QList<Direction> directions() const;
    void setDirections(const QList<Direction> &directions);
    void setDirectionVisible(Direction direction, bool visible);
    bool isDirectionVisible(Direction direction) const;
    static QList<Direction> allDirections();

    // Case-insensitive substring of the method; a response matches through the request it
    // answers, so "tools/call" shows both halves of each call. Empty shows all.
    QString methodFilter() const { return m_method; }
    void setMethodFilter(const QString &method);

    // Case-insensitive substring of the summary or the raw frame. Empty shows all.
    QString textFilter() const { return m_text; }
    void setTextFilter(const QString &text);

    // The store rows now visible, in view order: what "export what I see" exports.
    QList<int> visibleStoreRows() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    static unsigned bit(Direction d) { return 1u << unsigned(d); }

    TranscriptModel *m_transcript = nullptr;
    QString m_server;
    unsigned m_directions;
    QString m_method;
    QString m_text;
    QByteArray m_textLatin1; // m_text when it is ASCII: matched against raw bytes without decoding
};

} // namespace Sonde

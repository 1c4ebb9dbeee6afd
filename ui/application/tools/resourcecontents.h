// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Sonde {

// What a resources/read answer holds, as the Resources tab shows and saves it: a text block
// (HTML, Markdown, plain, JSON…) is its text, whatever its mime type; a blob is its decoded
// size and mime type. Save writes the contents whole: one block's text (UTF-8) or decoded
// bytes, or the whole answer as JSON when it has several blocks, since no one file holds
// them. A value; the view holds at most TextDisplay::MaxShownChars of text().
class ResourceContents
{
public:
    struct Block
    {
        QString uri;
        QString mimeType;
        bool isText = false;
        QString text;     // a text block's
        QByteArray bytes; // a blob block's, decoded
    };

    ResourceContents() = default;
    explicit ResourceContents(const QJsonObject &result);

    bool isEmpty() const { return m_blocks.isEmpty(); }
    const QList<Block> &blocks() const { return m_blocks; }
    // The texts, a blob as "(N bytes of MIME)"; blocks apart by an empty line.
    QString text() const;
    // What Save… writes.
    QByteArray bytesToSave() const;
    // A name for the file: the URI's last segment, with the suffix of its mime type when it
    // has none ("readme.md" for demo://readme in text/markdown).
    QString suggestedFileName() const;

private:
    QJsonObject m_result;
    QList<Block> m_blocks;
};

} // namespace Sonde

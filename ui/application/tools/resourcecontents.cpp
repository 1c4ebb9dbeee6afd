// SPDX-License-Identifier: MIT
#include "application/tools/resourcecontents.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMimeDatabase>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

ResourceContents::ResourceContents(const QJsonObject &result) : m_result(result)
{
    for (const QJsonValue &v : result.value("contents"_L1).toArray()) {
        const QJsonObject c = v.toObject();
        Block b;
        b.uri = c.value("uri"_L1).toString();
        b.mimeType = c.value("mimeType"_L1).toString();
        b.isText = c.value("text"_L1).isString();
        if (b.isText)
            b.text = c.value("text"_L1).toString();
        else
            b.bytes = QByteArray::fromBase64(c.value("blob"_L1).toString().toLatin1());
        m_blocks.append(std::move(b));
    }
}

QString ResourceContents::text() const
{
    QStringList texts;
    for (const Block &b : m_blocks)
        texts.append(b.isText ? b.text
                              : QCoreApplication::translate("ResourceContents", "(%1 bytes of %2)")
                                    .arg(QLocale().toString(qsizetype(b.bytes.size())),
                                         b.mimeType.isEmpty() ? u"unknown type"_s : b.mimeType));
    return texts.join(u"\n\n"_s);
}

QByteArray ResourceContents::bytesToSave() const
{
    if (m_blocks.size() != 1)
        return QJsonDocument(m_result).toJson(QJsonDocument::Indented);
    const Block &b = m_blocks.first();
    return b.isText ? b.text.toUtf8() : b.bytes;
}

QString ResourceContents::suggestedFileName() const
{
    if (m_blocks.size() != 1)
        return u"resource.json"_s;
    const Block &b = m_blocks.first();
    // Parameters such as ";profile=mcp-app" are not part of the type's name.
    const QString type = b.mimeType.section(u';', 0, 0).trimmed();
    QString name = QUrl(b.uri).fileName();
    if (name.isEmpty())
        name = QUrl(b.uri).host();
    if (name.isEmpty())
        name = u"resource"_s;
    if (!name.contains(u'.')) {
        const QMimeType mime = QMimeDatabase().mimeTypeForName(type);
        const QString suffix = mime.isValid() ? mime.preferredSuffix() : QString();
        if (!suffix.isEmpty())
            name += u'.' + suffix;
        else if (b.isText)
            name += u".txt"_s;
    }
    return name;
}

} // namespace Sonde

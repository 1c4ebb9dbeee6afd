// SPDX-License-Identifier: MIT
#include "sessionidmask.h"

#include "transcript/exportreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// How a string reads inside compact JSON, without its quotes.
QByteArray jsonForm(const QString &s)
{
    const QByteArray array = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return array.mid(2, array.size() - 4); // ["..."]
}
} // namespace

SessionIdMask::SessionIdMask() : m_key(32, Qt::Uninitialized)
{
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(m_key.data()),
                                          m_key.size() / int(sizeof(quint32)));
}

QString SessionIdMask::masked(const QString &id) const
{
    const QByteArray mac =
        QMessageAuthenticationCode::hash(id.toUtf8(), m_key, QCryptographicHash::Sha256);
    return u"sid:"_s + QString::fromLatin1(mac.left(8).toHex());
}

void SessionIdMask::learn(const QJsonObject &record)
{
    if (!record.contains("details"_L1))
        return;
    QStringList ids;
    ExportReader::addSessionIds(record, &ids);
    for (const QString &id : std::as_const(ids)) {
        // As short as a test's "s1", an id would mask every "s1" in the history; and a mask
        // is not masked again.
        if (id.size() < 4 || id.startsWith("sid:"_L1))
            continue;
        const QByteArray form = jsonForm(id);
        if (std::any_of(m_ids.cbegin(), m_ids.cend(),
                        [&form](const auto &known) { return known.first == form; }))
            continue;
        m_ids.append({form, masked(id).toLatin1()});
        if (m_ids.size() > MaxIds)
            m_ids.removeFirst();
        // Longest first: an id that holds another one is masked whole.
        std::stable_sort(m_ids.begin(), m_ids.end(), [](const auto &a, const auto &b) {
            return a.first.size() > b.first.size();
        });
    }
}

QByteArray SessionIdMask::apply(QByteArray json) const
{
    for (const auto &[form, mask] : m_ids)
        if (json.contains(form))
            json.replace(form, mask);
    return json;
}

} // namespace Sonde

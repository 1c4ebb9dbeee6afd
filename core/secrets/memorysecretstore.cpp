// SPDX-License-Identifier: MIT
#include "secrets/memorysecretstore.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

void MemorySecretStore::read(
    const QString &key, std::function<void(std::optional<QByteArray> value, QString error)> done)
{
    std::optional<QByteArray> value;
    if (const auto it = m_values.constFind(key); it != m_values.cend())
        value = it.value();
    QTimer::singleShot(0, [done = std::move(done), value] { done(value, QString()); });
}

void MemorySecretStore::write(const QString &key, const QByteArray &value,
                              std::function<void(QString error)> done)
{
    m_values.insert(key, value);
    QTimer::singleShot(0, [done = std::move(done)] { done(QString()); });
}

void MemorySecretStore::remove(const QString &key, std::function<void(QString error)> done)
{
    m_values.remove(key);
    QTimer::singleShot(0, [done = std::move(done)] { done(QString()); });
}

QString MemorySecretStore::kind() const
{
    return u"memory"_s;
}

} // namespace Sonde

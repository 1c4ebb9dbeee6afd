// SPDX-License-Identifier: MIT
#include "demostate.h"

#include "replaybook.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace Sonde {

DemoState::DemoState(QString path) : m_path(std::move(path))
{
    if (m_path.isEmpty())
        return;
    QFile f(m_path);
    if (f.open(QIODevice::ReadOnly))
        m_counter = QJsonDocument::fromJson(f.readAll()).object().value("counter"_L1).toInteger();
}

qint64 DemoState::add(qint64 by)
{
    m_counter += by;
    if (!m_path.isEmpty()) {
        // Written before the answer leaves, so a crash right after still counts.
        QSaveFile f(m_path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(QJsonDocument(QJsonObject{{"counter"_L1, m_counter}})
                        .toJson(QJsonDocument::Compact));
            f.commit();
        }
    }
    Q_EMIT counterChanged();
    return m_counter;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "transport/oneshotbody.h"

#include <cstring>

namespace Sonde {

OneShotBody::OneShotBody(QByteArray data, QObject *parent)
    : QIODevice(parent), m_data(std::move(data))
{
    open(QIODevice::ReadOnly);
}

bool OneShotBody::seek(qint64 pos)
{
    // Seeking forward (or to where reading already is) is reading; going back is a re-send.
    if (m_started && pos < this->pos()) {
        ++m_refusedRewinds;
        return false;
    }
    return QIODevice::seek(pos);
}

qint64 OneShotBody::readData(char *data, qint64 maxSize)
{
    const qint64 at = pos();
    const qint64 n = std::min<qint64>(maxSize, m_data.size() - at);
    if (n <= 0)
        return m_data.size() > at ? 0 : -1;
    m_started = true;
    std::memcpy(data, m_data.constData() + at, size_t(n));
    return n;
}

} // namespace Sonde

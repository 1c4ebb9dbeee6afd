// SPDX-License-Identifier: MIT
#include "stdiolinechannel.h"

#include <QSocketNotifier>

#include <cerrno>
#include <unistd.h>

namespace Sonde {

StdioLineChannel::StdioLineChannel(QObject *parent) : QObject(parent)
{
    m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StdioLineChannel::onReadable);
}

void StdioLineChannel::onReadable()
{
    char buffer[64 * 1024];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        m_notifier->setEnabled(false);
        const QByteArray tail = m_framer.takeRemainder();
        if (!tail.isEmpty())
            Q_EMIT frameReceived(tail);
        Q_EMIT endOfInput();
        return;
    }
    const QList<QByteArray> lines = m_framer.feed(QByteArray(buffer, qsizetype(n)));
    for (const QByteArray &line : lines)
        Q_EMIT frameReceived(line);
}

void StdioLineChannel::write(const QByteArray &frame)
{
    QByteArray line = frame;
    line.append('\n');
    const char *p = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, p, size_t(left));
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return; // the client is gone; endOfInput follows
        }
        p += n;
        left -= n;
    }
}

} // namespace Sonde

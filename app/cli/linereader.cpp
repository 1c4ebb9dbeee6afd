// SPDX-License-Identifier: MIT
#include "linereader.h"

#include <QMutex>

#include <cerrno>
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

// What the reading thread and the owner share: the owner clears `target` under the mutex
// before it dies, and the thread posts only while holding it, so a posted call never
// outlives its receiver (Qt drops events posted to an object when it is destroyed).
struct LineReader::Shared
{
    QMutex mutex;
    LineReader *target = nullptr;
};

LineReader::LineReader(int fd, QObject *parent)
    : QObject(parent), m_fd(fd), m_shared(std::make_shared<Shared>())
{
    m_shared->target = this;
}

LineReader::~LineReader()
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->target = nullptr;
}

void LineReader::start()
{
    std::thread([fd = m_fd, shared = m_shared] {
        auto post = [&shared](auto &&f) {
            QMutexLocker lock(&shared->mutex);
            if (!shared->target)
                return false;
            QMetaObject::invokeMethod(
                shared->target, [target = shared->target, f] { f(target); }, Qt::QueuedConnection);
            return true;
        };
        QByteArray buffer;
        char chunk[65536];
        QString error;
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                error = u"cannot read the steps: %1"_s.arg(QString::fromLocal8Bit(strerror(errno)));
                break;
            }
            if (n == 0)
                break;
            qsizetype from = buffer.size();
            buffer.append(chunk, n);
            qsizetype start = 0;
            for (qsizetype nl; (nl = buffer.indexOf('\n', from)) >= 0; from = start = nl + 1) {
                QByteArray line = buffer.mid(start, nl - start);
                if (!post([line](LineReader *r) { Q_EMIT r->lineRead(line); }))
                    return;
            }
            buffer.remove(0, start);
            if (buffer.size() > MaxLineBytes) {
                error = u"a step line is longer than %1 bytes"_s.arg(MaxLineBytes);
                buffer.clear();
                break;
            }
        }
        if (!buffer.isEmpty()) // a last line without a newline is still a step
            post([line = buffer](LineReader *r) { Q_EMIT r->lineRead(line); });
        post([error](LineReader *r) { Q_EMIT r->endOfInput(error); });
    }).detach();
}

} // namespace Sonde

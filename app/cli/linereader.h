// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <memory>

namespace Sonde {

// Reads lines from a file descriptor (sonde-cli's stdin for `exec -`) as they arrive and
// hands each to its owner's thread at once, so a program driving a live session gets the
// answer to one step before it writes the next. It works the same for a terminal, a pipe
// and a regular file, which a QSocketNotifier on fd 0 does not (a file is never "ready").
// The reading thread is detached: a read() blocked on a terminal or an open pipe cannot be
// interrupted portably, and the process may leave while it waits; once this object is gone
// the thread delivers nothing more.
// Thread: created, started and destroyed on one thread; its signals arrive there.
class LineReader : public QObject
{
    Q_OBJECT
public:
    // A step line longer than this ends the input with an error instead of growing memory.
    static constexpr qsizetype MaxLineBytes = 64 * 1024 * 1024;

    explicit LineReader(int fd, QObject *parent = nullptr);
    ~LineReader() override;
    void start();

Q_SIGNALS:
    void lineRead(const QByteArray &line); // without the newline
    void endOfInput(const QString &error); // error is empty at a clean end of file

private:
    struct Shared;
    int m_fd;
    std::shared_ptr<Shared> m_shared;
};

} // namespace Sonde

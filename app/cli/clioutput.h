// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

class QJsonObject;

namespace Sonde {

// What every sonde-cli command writes, written one way: answers as JSON on stdout, its own
// words on stderr after its name. Thread: any (stdio's own locking); the history command
// writes from its worker thread.
namespace CliOutput {

// A compact line (exec's steps, a collection's calls, history records) or one indented
// document (a one-shot command's answer, as a person reads it).
enum class Layout
{
    Line,
    Document
};

// Flushed at once: a script reading the pipe gets each answer as it comes.
void print(const QJsonObject &answer, Layout layout);

// A long string printed from the bytes it came in (a frame), escapes as they were written:
// the answer carries the returned token as that string's value, and print() writes `size`
// bytes of `source` from `from` in its place, without a copy of them in between. What keeps a
// 50 MiB answer from being parsed, copied into the answer and serialized again all at once.
// The bytes are let go once printed. Thread: the one that prints.
QString verbatim(QByteArray source, qsizetype from, qsizetype size);
// "sonde-cli: message" on stderr; `who` is the command speaking ("sonde-cli history").
void complain(const QString &message, const QString &who = QStringLiteral("sonde-cli"));
// A command line refused: one line that points at --help. Returns the exit status, 2.
int usageError(const QString &why, const QString &who = QStringLiteral("sonde-cli"));

} // namespace CliOutput

} // namespace Sonde

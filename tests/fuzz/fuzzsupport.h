// SPDX-License-Identifier: MIT
#pragma once

// Shared by the libFuzzer targets: a failed property is a crash with a message, so
// libFuzzer keeps the input as a reproducer.

#include <QByteArray>
#include <QList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);       \
            std::abort();                                                                          \
        }                                                                                          \
    } while (0)

namespace SondeFuzz {

// The input as it arrives from a pipe or a socket: cut into reads whose sizes come from
// `sizes` (cycled), so the same bytes are fed split in a way the fuzzer controls.
inline QList<QByteArray> chunked(const QByteArray &bytes, const QByteArray &sizes)
{
    QList<QByteArray> out;
    qsizetype at = 0;
    for (qsizetype k = 0; at < bytes.size(); ++k) {
        const qsizetype len = sizes.isEmpty() ? 1 : 1 + uchar(sizes.at(k % sizes.size())) % 64;
        out.append(bytes.mid(at, len));
        at += len;
    }
    return out;
}

} // namespace SondeFuzz

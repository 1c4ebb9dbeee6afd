// SPDX-License-Identifier: MIT
// LineFramer: whatever the bytes and however they are split into reads, the same lines and
// the same drops come out, and no line is over the limit or holds a newline.
#include "fuzzsupport.h"
#include "protocol/lineframer.h"

using namespace Sonde;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    // Byte 0: the limit (a small one, so inputs reach it); byte 1: how many split bytes.
    const qsizetype limit = 1 + data[0] % 128;
    const size_t splitLen = std::min<size_t>(data[1] % 8, size - 2);
    const QByteArray sizes(reinterpret_cast<const char *>(data) + 2, qsizetype(splitLen));
    const QByteArray stream(reinterpret_cast<const char *>(data) + 2 + splitLen,
                            qsizetype(size - 2 - splitLen));

    LineFramer whole(limit);
    const QList<QByteArray> reference = whole.feed(stream);
    const int dropped = whole.takeOversizedCount();
    const QByteArray rest = whole.takeRemainder();

    LineFramer split(limit);
    QList<QByteArray> got;
    for (const QByteArray &c : SondeFuzz::chunked(stream, sizes))
        got += split.feed(c);
    FUZZ_CHECK(split.bufferedBytes() <= limit + 1);
    FUZZ_CHECK(got == reference);
    FUZZ_CHECK(split.takeOversizedCount() == dropped);
    FUZZ_CHECK(split.takeRemainder() == rest);
    for (const QByteArray &line : reference) {
        FUZZ_CHECK(!line.isEmpty() && line.size() <= limit);
        FUZZ_CHECK(!line.contains('\n'));
    }
    return 0;
}

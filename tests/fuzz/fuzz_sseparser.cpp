// SPDX-License-Identifier: MIT
// SseParser: however a stream is split into reads, the same events, drops, last event id
// and retry come out; no event is over the limit; retry stays clamped.
#include "fuzzsupport.h"
#include "protocol/sseparser.h"

using namespace Sonde;

namespace {
struct Outcome
{
    QList<SseEvent> events;
    QString lastId;
    std::optional<int> retry;
    int dropped = 0;
};

bool same(const Outcome &a, const Outcome &b)
{
    if (a.events.size() != b.events.size() || a.lastId != b.lastId || a.retry != b.retry ||
        a.dropped != b.dropped)
        return false;
    for (qsizetype i = 0; i < a.events.size(); ++i)
        if (a.events[i].data != b.events[i].data || a.events[i].type != b.events[i].type ||
            a.events[i].id != b.events[i].id)
            return false;
    return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    // Byte 0 picks the limit: small ones reach the drop path, 0 means the default.
    const qsizetype limit = data[0] == 0 ? Limits::DefaultMaxFrameBytes : 1 + data[0] % 200;
    const size_t splitLen = std::min<size_t>(data[1] % 8, size - 2);
    const QByteArray sizes(reinterpret_cast<const char *>(data) + 2, qsizetype(splitLen));
    const QByteArray stream(reinterpret_cast<const char *>(data) + 2 + splitLen,
                            qsizetype(size - 2 - splitLen));

    auto run = [&](const QList<QByteArray> &chunks) {
        SseParser p(limit);
        Outcome o;
        for (const QByteArray &c : chunks)
            o.events += p.feed(c);
        o.lastId = p.lastEventId();
        o.retry = p.retryMs();
        o.dropped = p.takeOversizedCount();
        FUZZ_CHECK(p.pendingBytes() <= limit + 1);
        return o;
    };
    const Outcome whole = run({stream});
    FUZZ_CHECK(same(run(SondeFuzz::chunked(stream, sizes)), whole));
    if (whole.retry)
        FUZZ_CHECK(*whole.retry >= 0 && *whole.retry <= Limits::MaxSseRetryMs);
    for (const SseEvent &e : whole.events)
        FUZZ_CHECK(e.data.size() <= limit);
    return 0;
}

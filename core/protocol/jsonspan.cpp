// SPDX-License-Identifier: MIT
#include "protocol/jsonspan.h"

#include "protocol/jsonscanner.h"

#include <algorithm>
#include <cstring>

namespace Sonde::JsonSpan {

namespace {

bool at(const JsonScanner &s, char c)
{
    return s.i < s.n && s.f[s.i] == c;
}

// At an object's '{': leaves the scanner at the value of the last member named `key`.
bool member(JsonScanner &s, QLatin1StringView key, int depth)
{
    ++s.i;
    qsizetype found = -1;
    s.space();
    if (at(s, '}'))
        return false;
    for (;;) {
        s.space();
        if (!at(s, '"'))
            return false;
        const qsizetype start = s.i + 1;
        bool escaped = false;
        if (!s.string(&escaped))
            return false;
        const QByteArrayView name(s.f + start, s.i - 1 - start);
        s.space();
        if (!at(s, ':'))
            return false;
        ++s.i;
        s.space();
        if (!escaped && name == QByteArrayView(key.data(), key.size()))
            found = s.i;
        if (!s.value(depth + 1))
            return false;
        s.space();
        if (at(s, ',')) {
            ++s.i;
            continue;
        }
        if (!at(s, '}') || found < 0)
            return false;
        s.i = found;
        return true;
    }
}

// At an array's '[': leaves the scanner at element `index`.
bool element(JsonScanner &s, int index, int depth)
{
    ++s.i;
    for (int k = 0;; ++k) {
        s.space();
        if (at(s, ']'))
            return false;
        if (k == index)
            return true;
        if (!s.value(depth + 1))
            return false;
        s.space();
        if (!at(s, ','))
            return false;
        ++s.i;
    }
}

} // namespace

std::optional<Span> stringAt(QByteArrayView json, std::initializer_list<Step> path)
{
    JsonScanner s(json);
    int depth = 0;
    for (const Step &step : path) {
        s.space();
        const bool ok = std::holds_alternative<QLatin1StringView>(step)
                            ? at(s, '{') && member(s, std::get<QLatin1StringView>(step), depth)
                            : at(s, '[') && element(s, std::get<int>(step), depth);
        if (!ok)
            return std::nullopt;
        ++depth;
    }
    s.space();
    if (!at(s, '"'))
        return std::nullopt;
    const qsizetype from = s.i + 1;
    if (!s.string())
        return std::nullopt;
    return Span{from, s.i - 1 - from};
}

std::optional<QByteArray> shortened(const QByteArray &json, qsizetype maxStringBytes,
                                    qsizetype *cut)
{
    static constexpr QByteArrayView Mark = "\\u2026"; // "…", written as an escape
    QByteArray out;
    qsizetype left = 0;
    JsonScanner s(json);
    qsizetype copied = 0; // json[0, copied) is in out or was cut
    while (s.i < s.n) {
        // Outside strings a quote always opens one; what lies between is copied as it is.
        const void *q = std::memchr(s.f + s.i, '"', size_t(s.n - s.i));
        if (!q)
            break;
        s.i = static_cast<const char *>(q) - s.f;
        const qsizetype from = s.i + 1;
        if (!s.string())
            return std::nullopt;
        const qsizetype size = s.i - 1 - from;
        if (size <= maxStringBytes)
            continue;
        if (out.isEmpty())
            out.reserve(std::min(json.size(), 4 * maxStringBytes + 4096));
        qsizetype end = from + std::max<qsizetype>(0, maxStringBytes - Mark.size());
        // Not inside a UTF-8 sequence: back to its lead byte.
        while (end > from && (uchar(json[end]) & 0xC0) == 0x80)
            --end;
        // Not inside an escape: back before a backslash that escapes what follows, or before
        // a \uXXXX whose digits the cut would split.
        for (qsizetype k = end - 1; k >= from && k >= end - 5; --k) {
            if (json[k] != '\\')
                continue;
            qsizetype run = 0;
            while (k - run >= from && json[k - run] == '\\')
                ++run;
            if (run % 2 == 1 && (k == end - 1 || json[k + 1] == 'u'))
                end = k;
            break;
        }
        // Not between the halves of a surrogate pair: a lone high surrogate is no character.
        if (end - 6 >= from && json[end - 6] == '\\' && (json[end - 5] == 'u') &&
            (json[end - 4] == 'd' || json[end - 4] == 'D') &&
            QByteArrayView("89abAB").contains(json[end - 3])) {
            qsizetype run = 0;
            while (end - 6 - run >= from && json[end - 6 - run] == '\\')
                ++run;
            if (run % 2 == 1)
                end -= 6;
        }
        out.append(json.sliced(copied, end - copied));
        out.append(Mark);
        out.append('"');
        left += s.i - 1 - end;
        copied = s.i;
    }
    if (cut)
        *cut = left;
    if (copied == 0)
        return json; // shared, not copied
    out.append(json.sliced(copied));
    return out;
}

} // namespace Sonde::JsonSpan

// SPDX-License-Identifier: MIT
#include "protocol/jsonspan.h"

#include "protocol/jsonscanner.h"

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

} // namespace Sonde::JsonSpan

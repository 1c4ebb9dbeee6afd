// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/limits.h"

#include <QByteArray>
#include <QByteArrayView>

#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace Sonde {

// Walks JSON text by the rules of Qt's own parser (qjsonparser.cpp), without building
// anything: peekEnvelope() may only answer for a frame that QJsonDocument would accept, or
// a transport would route (and mark answered) a frame the session then rejects. Where Qt
// is more lenient than RFC 8259 (any character may follow a backslash; a number is whatever
// QByteArray::toDouble() takes), this follows Qt, not the RFC.
// Iterative, with one byte of state per open container, so depth costs no stack. Defined in
// the header so its hot loops inline into peekEnvelope(). A value on the stack; any thread.
class JsonScanner
{
public:
    explicit JsonScanner(QByteArrayView text) : f(text.data()), n(text.size()) {}

    const char *f;
    qsizetype n;
    qsizetype i = 0;

    void space()
    {
        while (i < n && (f[i] == ' ' || f[i] == '\t' || f[i] == '\n' || f[i] == '\r'))
            ++i;
    }

    // At the opening quote; true when the string is valid and its closing quote was passed.
    bool string(bool *escaped = nullptr)
    {
        // Most of a big frame is string bytes: skip plain ASCII with a local pointer and a
        // table (about a byte per cycle), and go through the checks below only for quotes,
        // backslashes and UTF-8 sequences.
        static constexpr auto plain = [] {
            std::array<bool, 256> t{};
            for (int c = 0; c < 0x80; ++c)
                t[c] = c != '"' && c != '\\';
            return t;
        }();
        for (++i; i < n;) {
            const char *p = f + i;
            const char *const end = f + n;
            // Sixteen (SSE2), then eight bytes at a time while none is a quote, a backslash
            // or past ASCII: a 20 MiB text is scanned in about 2 ms instead of 15, and the
            // table below finds which byte stopped it.
#if defined(__SSE2__)
            const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
            while (end - p >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
                // A byte past ASCII has its own top bit set, a match has all of them.
                const __m128i hit = _mm_or_si128(
                    v, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
                if (const int mask = _mm_movemask_epi8(hit)) {
                    p += __builtin_ctz(unsigned(mask));
                    break;
                }
                p += 16;
            }
#endif
            constexpr quint64 ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
            const auto hasZeroByte = [](quint64 v) { return (v - ones) & ~v & highs; };
            while (end - p >= 8) {
                quint64 w;
                std::memcpy(&w, p, 8);
                if ((w & highs) | hasZeroByte(w ^ (ones * '"')) | hasZeroByte(w ^ (ones * '\\')))
                    break;
                p += 8;
            }
            while (p < end && plain[uchar(*p)])
                ++p;
            i = p - f;
            if (i >= n)
                return false;
            const uchar c = uchar(f[i]);
            if (c == '"')
                return ++i, true;
            if (c == '\\') {
                if (escaped)
                    *escaped = true;
                if (++i >= n)
                    return false;
                if (f[i++] != 'u')
                    continue; // Qt takes any other escaped byte as itself
                if (n - i < 4)
                    return false;
                for (int k = 0; k < 4; ++k, ++i)
                    if (!isHex(f[i]))
                        return false;
                continue;
            }
            if (c < 0x80) {
                ++i;
                continue;
            }
            if (!utf8(c))
                return false;
        }
        return false;
    }

    // One well-formed UTF-8 sequence (Unicode table 3-7: no overlong forms, no surrogates,
    // nothing past U+10FFFF), as Qt's decoder demands.
    bool utf8(uchar lead)
    {
        int more = 0;
        uchar lo = 0x80, hi = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            more = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            more = 2;
            if (lead == 0xE0)
                lo = 0xA0;
            else if (lead == 0xED)
                hi = 0x9F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            more = 3;
            if (lead == 0xF0)
                lo = 0x90;
            else if (lead == 0xF4)
                hi = 0x8F;
        } else {
            return false;
        }
        if (n - i - 1 < more)
            return false;
        for (int k = 1; k <= more; ++k) {
            const uchar c = uchar(f[i + k]);
            if (c < lo || c > hi)
                return false;
            lo = 0x80;
            hi = 0xBF;
        }
        i += 1 + more;
        return true;
    }

    // A literal or a number, at its first byte.
    bool scalar()
    {
        auto literal = [&](QByteArrayView word) {
            // Qt wants one byte after the word; inside an object there always is one.
            if (n - i <= word.size() || QByteArrayView(f + i, word.size()) != word)
                return false;
            i += word.size();
            return true;
        };
        switch (f[i]) {
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            break;
        }
        const qsizetype start = i;
        if (i < n && f[i] == '-')
            ++i;
        if (i < n && f[i] == '0') {
            ++i;
        } else {
            while (i < n && isDigit(f[i]))
                ++i;
        }
        if (i < n && f[i] == '.') {
            ++i;
            while (i < n && isDigit(f[i]))
                ++i;
        }
        if (i < n && (f[i] == 'e' || f[i] == 'E')) {
            ++i;
            if (i < n && (f[i] == '-' || f[i] == '+'))
                ++i;
            while (i < n && isDigit(f[i]))
                ++i;
        }
        if (i >= n)
            return false;
        bool ok = false;
        QByteArray::fromRawData(f + start, i - start).toDouble(&ok);
        return ok;
    }

    // One value at i (after any space), nested `depth` containers deep already.
    bool value(int depth)
    {
        // The closing bracket each open container expects.
        char open[Limits::MaxJsonDepth];
        int top = 0;
        auto key = [&] { // at a key's opening quote: key, colon
            if (i >= n || f[i] != '"' || !string())
                return false;
            space();
            if (i >= n || f[i] != ':')
                return false;
            ++i;
            return true;
        };
        for (;;) {
            // A value is expected here.
            space();
            if (i >= n)
                return false;
            const char c = f[i];
            if (c == '{' || c == '[') {
                if (depth + top + 1 > Limits::MaxJsonDepth)
                    return false;
                open[top++] = c == '{' ? '}' : ']';
                ++i;
                space();
                if (i < n && f[i] == open[top - 1]) {
                    ++i;
                    --top;
                } else {
                    if (c == '{' && !key())
                        return false;
                    continue;
                }
            } else if (c == '"') {
                if (!string())
                    return false;
            } else if (!scalar()) {
                return false;
            }
            // After a value: a separator or the end of its container.
            for (;;) {
                if (top == 0)
                    return true;
                space();
                if (i >= n)
                    return false;
                if (f[i] == ',') {
                    ++i;
                    if (open[top - 1] == '}') {
                        space();
                        if (!key())
                            return false;
                    }
                    break;
                }
                if (f[i] != open[top - 1])
                    return false;
                ++i;
                --top;
            }
        }
    }

private:
    static bool isDigit(char c)
    {
        return c >= '0' && c <= '9';
    }
    static bool isHex(char c)
    {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "config/jsoncreader.h"

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<QByteArray> JsoncReader::toJson(const QByteArray &jsonc, QString *error,
                                              qsizetype *errorOffset)
{
    auto fail = [&](const QString &why, qsizetype at) -> std::optional<QByteArray> {
        if (error)
            *error = why;
        if (errorOffset)
            *errorOffset = at;
        return std::nullopt;
    };
    if (jsonc.size() > MaxInputBytes)
        return fail(
            u"%1 bytes is more than a configuration file may hold (%2 bytes)"_s.arg(jsonc.size())
                .arg(MaxInputBytes),
            0);

    QByteArray out = jsonc;
    char *d = out.data();
    const qsizetype n = out.size();
    // Where the last comma outside a string sits, until something other than white space or
    // a comment follows it: if that is a closing bracket, the comma was a trailing one.
    qsizetype pendingComma = -1;
    // Only a comma after a value can be a trailing one: "[,]" and "{,}" stay errors.
    char lastSignificant = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const char c = d[i];
        if (c == '"') {
            pendingComma = -1;
            lastSignificant = c;
            // Skip the string whole; an unterminated one is left for the JSON parser to report.
            for (++i; i < n && d[i] != '"'; ++i) {
                if (d[i] == '\\')
                    ++i;
            }
        } else if (c == '/' && i + 1 < n && d[i + 1] == '/') {
            for (; i < n && d[i] != '\n'; ++i)
                d[i] = ' ';
        } else if (c == '/' && i + 1 < n && d[i + 1] == '*') {
            const qsizetype start = i;
            d[i] = d[i + 1] = ' ';
            for (i += 2; i < n && !(d[i] == '*' && i + 1 < n && d[i + 1] == '/'); ++i) {
                if (d[i] != '\n' && d[i] != '\r')
                    d[i] = ' ';
            }
            if (i >= n)
                return fail(u"a /* comment is not closed"_s, start);
            d[i] = d[i + 1] = ' ';
            ++i;
        } else if (c == ',') {
            const bool afterValue = lastSignificant != 0 && lastSignificant != ',' &&
                                    lastSignificant != '[' && lastSignificant != '{';
            pendingComma = afterValue ? i : -1;
            lastSignificant = c;
        } else if (c == ']' || c == '}') {
            if (pendingComma >= 0)
                d[pendingComma] = ' ';
            pendingComma = -1;
            lastSignificant = c;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            pendingComma = -1;
            lastSignificant = c;
        }
    }
    return out;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

namespace Sonde {

// One difference between two JSON values, at an RFC 6901 pointer ("" is the whole value).
struct JsonDifference
{
    enum class Kind
    {
        Added,       // only in the new value (newValue set)
        Removed,     // only in the old value (oldValue set)
        Changed,     // a scalar of the same type with another value
        TypeChanged, // another JSON type (an object became a string, null became a number...)
    };
    QString pointer;
    Kind kind = Kind::Changed;
    QJsonValue oldValue;
    QJsonValue newValue;

    static QString kindName(Kind kind); // "added", "removed", "changed", "type-changed"
    bool operator==(const JsonDifference &other) const = default;
};

// A structural diff of two JSON values, for showing how a replayed answer differs from the
// recorded one. Objects are compared by key (keys in sorted order). Arrays are compared by
// index, except that two arrays holding only scalars are aligned by their longest common
// subsequence, so one element put in or taken out is one difference, not a shifted tail.
// There a removed element is named by its index in the old array, an added or changed one by
// its index in the new one. Numbers compare as numbers (1 and 1.0 are equal). Bounded: at
// most maxDifferences are listed (the rest only counted), subtrees deeper than maxDepth are
// compared whole and reported as one change, and an alignment that would take more than
// MaxAlignmentCells steps falls back to index order. Pure; any thread.
class JsonDiff
{
public:
    static constexpr qsizetype MaxAlignmentCells = 1'000'000;

    struct Limits
    {
        int maxDifferences = 500;
        int maxDepth = 64;
    };
    struct Result
    {
        QList<JsonDifference> differences; // the first maxDifferences, in document order
        qsizetype total = 0;               // every difference found, listed or not
        bool depthLimited = false;         // a subtree below maxDepth was compared whole
        bool identical() const { return total == 0; }
        qsizetype omitted() const { return total - differences.size(); }
    };

    static Result compare(const QJsonValue &oldValue, const QJsonValue &newValue);
    static Result compare(const QJsonValue &oldValue, const QJsonValue &newValue, Limits limits);
    // One reference token, escaped: "~" as "~0", "/" as "~1".
    static QString escapeToken(const QString &token);
    // Numbers as numbers, the rest as QJsonValue compares them.
    static bool sameValue(const QJsonValue &a, const QJsonValue &b);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "util/jsondiff.h"

#include "util/enumnames.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

bool isScalar(const QJsonValue &v)
{
    return !v.isArray() && !v.isObject();
}

class Differ
{
public:
    explicit Differ(JsonDiff::Limits limits) : m_limits(limits) {}

    void value(const QString &at, const QJsonValue &a, const QJsonValue &b, int depth)
    {
        if (a.type() != b.type()) {
            add(at, JsonDifference::Kind::TypeChanged, a, b);
        } else if (depth >= m_limits.maxDepth && !isScalar(a)) {
            if (!JsonDiff::sameValue(a, b)) {
                m_result.depthLimited = true;
                add(at, JsonDifference::Kind::Changed, a, b);
            }
        } else if (a.isObject()) {
            object(at, a.toObject(), b.toObject(), depth + 1);
        } else if (a.isArray()) {
            array(at, a.toArray(), b.toArray(), depth + 1);
        } else if (!JsonDiff::sameValue(a, b)) {
            add(at, JsonDifference::Kind::Changed, a, b);
        }
    }

    JsonDiff::Result take() { return std::move(m_result); }

private:
    void add(const QString &at, JsonDifference::Kind kind, const QJsonValue &a, const QJsonValue &b)
    {
        ++m_result.total;
        if (m_result.differences.size() < m_limits.maxDifferences)
            m_result.differences.append({at, kind, a, b});
    }

    void object(const QString &at, const QJsonObject &a, const QJsonObject &b, int depth)
    {
        QStringList keys = a.keys() + b.keys();
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        for (const QString &key : std::as_const(keys)) {
            const QString here = at + u'/' + JsonDiff::escapeToken(key);
            const auto inA = a.constFind(key);
            const auto inB = b.constFind(key);
            if (inB == b.constEnd())
                add(here, JsonDifference::Kind::Removed, *inA, {});
            else if (inA == a.constEnd())
                add(here, JsonDifference::Kind::Added, {}, *inB);
            else
                value(here, *inA, *inB, depth);
        }
    }

    void array(const QString &at, const QJsonArray &a, const QJsonArray &b, int depth)
    {
        const bool scalars =
            std::all_of(a.begin(), a.end(), isScalar) && std::all_of(b.begin(), b.end(), isScalar);
        if (scalars && qsizetype(a.size() + 1) * (b.size() + 1) <= JsonDiff::MaxAlignmentCells) {
            aligned(at, a, b);
            return;
        }
        const qsizetype common = std::min(a.size(), b.size());
        for (qsizetype i = 0; i < common; ++i)
            value(at + u'/' + QString::number(i), a.at(i), b.at(i), depth);
        for (qsizetype i = common; i < a.size(); ++i)
            add(at + u'/' + QString::number(i), JsonDifference::Kind::Removed, a.at(i), {});
        for (qsizetype i = common; i < b.size(); ++i)
            add(at + u'/' + QString::number(i), JsonDifference::Kind::Added, {}, b.at(i));
    }

    // Longest common subsequence; between two matched elements, the old ones left over are
    // paired with the new ones as changes, and the surplus is removed or added.
    void aligned(const QString &at, const QJsonArray &a, const QJsonArray &b)
    {
        const qsizetype n = a.size(), m = b.size();
        std::vector<int> len(size_t((n + 1) * (m + 1)), 0);
        const auto cell = [m](qsizetype i, qsizetype j) { return size_t(i * (m + 1) + j); };
        for (qsizetype i = n - 1; i >= 0; --i)
            for (qsizetype j = m - 1; j >= 0; --j)
                len[cell(i, j)] = JsonDiff::sameValue(a.at(i), b.at(j))
                                      ? len[cell(i + 1, j + 1)] + 1
                                      : std::max(len[cell(i + 1, j)], len[cell(i, j + 1)]);
        qsizetype i = 0, j = 0;
        while (i < n || j < m) {
            const qsizetype gapA = i, gapB = j;
            while (i < n && j < m && !JsonDiff::sameValue(a.at(i), b.at(j))) {
                if (len[cell(i + 1, j)] >= len[cell(i, j + 1)])
                    ++i;
                else
                    ++j;
            }
            if (i == n || j == m) {
                i = n;
                j = m;
            }
            gap(at, a, b, gapA, i, gapB, j);
            if (i < n && j < m) {
                ++i;
                ++j;
            }
        }
    }

    void gap(const QString &at, const QJsonArray &a, const QJsonArray &b, qsizetype a0,
             qsizetype a1, qsizetype b0, qsizetype b1)
    {
        const qsizetype paired = std::min(a1 - a0, b1 - b0);
        for (qsizetype k = 0; k < paired; ++k) {
            const QJsonValue &x = a.at(a0 + k), &y = b.at(b0 + k);
            add(at + u'/' + QString::number(b0 + k),
                x.type() == y.type() ? JsonDifference::Kind::Changed
                                     : JsonDifference::Kind::TypeChanged,
                x, y);
        }
        for (qsizetype k = a0 + paired; k < a1; ++k)
            add(at + u'/' + QString::number(k), JsonDifference::Kind::Removed, a.at(k), {});
        for (qsizetype k = b0 + paired; k < b1; ++k)
            add(at + u'/' + QString::number(k), JsonDifference::Kind::Added, {}, b.at(k));
    }

    JsonDiff::Limits m_limits;
    JsonDiff::Result m_result;
};

} // namespace

QString JsonDifference::kindName(Kind kind)
{
    static const char *const names[] = {"added", "removed", "changed", "type-changed"};
    return enumName(names, kind);
}

JsonDiff::Result JsonDiff::compare(const QJsonValue &oldValue, const QJsonValue &newValue)
{
    return compare(oldValue, newValue, Limits());
}

JsonDiff::Result JsonDiff::compare(const QJsonValue &oldValue, const QJsonValue &newValue,
                                   Limits limits)
{
    Differ d(limits);
    d.value(QString(), oldValue, newValue, 0);
    return d.take();
}

QString JsonDiff::escapeToken(const QString &token)
{
    QString out = token;
    out.replace(u'~', "~0"_L1);
    out.replace(u'/', "~1"_L1);
    return out;
}

bool JsonDiff::sameValue(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isDouble() && b.isDouble())
        return a.toDouble() == b.toDouble() && a.toInteger() == b.toInteger();
    return a == b;
}

} // namespace Sonde

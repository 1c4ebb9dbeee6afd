// SPDX-License-Identifier: MIT
#include "application/auth/authstepmodel.h"
#include "util/durationtext.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// The engine records a step once it is done, so a list that continues the shown one says
// the same about every row already there.
bool sameStep(const AuthStep &a, const AuthStep &b)
{
    return a.name == b.name && a.method == b.method && a.url == b.url && a.status == b.status &&
           a.ok == b.ok && a.chosen == b.chosen && a.why == b.why && a.error == b.error &&
           a.startedMs == b.startedMs && a.elapsedMs == b.elapsedMs;
}

QString resultTip(const AuthStep &s)
{
    QStringList lines;
    if (!s.chosen.isEmpty())
        lines.append(AuthStepModel::tr("Chosen: %1").arg(s.chosen));
    if (!s.why.isEmpty())
        lines.append(AuthStepModel::tr("Why: %1").arg(s.why));
    if (!s.error.isEmpty())
        lines.append(AuthStepModel::tr("Error: %1").arg(s.error));
    return lines.join(u'\n');
}

bool continues(const QList<AuthStep> &shown, const QList<AuthStep> &steps)
{
    if (steps.size() < shown.size())
        return false;
    for (qsizetype i = 0; i < shown.size(); ++i)
        if (!sameStep(shown.at(i), steps.at(i)))
            return false;
    return true;
}
} // namespace

void AuthStepModel::setSteps(const QList<AuthStep> &steps)
{
    if (!continues(m_steps, steps)) {
        beginResetModel();
        m_steps = steps;
        endResetModel();
        return;
    }
    if (steps.size() == m_steps.size())
        return;
    beginInsertRows({}, int(m_steps.size()), int(steps.size()) - 1);
    m_steps = steps;
    endInsertRows();
}

int AuthStepModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_steps.size());
}

int AuthStepModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuthStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const QStringList names = {tr("Step"), tr("Request"), tr("Status"), tr("Time"),
                                      tr("Chosen and why, or the error")};
    return names.value(section);
}

QString AuthStepModel::stepTitle(const QString &name)
{
    static const QHash<QString, QString> known = {
        {u"protected-resource-metadata"_s, tr("Protected resource metadata")},
        {u"authorization-server-metadata"_s, tr("Authorization server metadata")},
        {u"client-identity"_s, tr("Client identity")},
        {u"authorization"_s, tr("Authorization (browser)")},
        {u"token"_s, tr("Token")},
        {u"refresh"_s, tr("Refresh")},
        {u"step-up"_s, tr("Step-up (more scopes)")},
    };
    if (const auto it = known.constFind(name); it != known.cend())
        return *it;
    QString words = name;
    words.replace(u'-', u' ');
    if (!words.isEmpty())
        words[0] = words.at(0).toUpper();
    return words;
}

QColor AuthStepModel::errorColor()
{
    // Luminance about 0.2: 3.3:1 on the dark window (#2b2b2b), 3.7:1 on a light one (#f0f0f0).
    return QColor(0xe5, 0x39, 0x35);
}

QVariant AuthStepModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuthStep &s = m_steps.at(index.row());
    switch (role) {
    case NameRole:
        return s.name;
    case FailedRole:
        return !s.ok;
    case ChosenRole:
        return s.chosen;
    case WhyRole:
        return s.why;
    case ErrorRole:
        return s.error;
    case Qt::ForegroundRole:
        if (!s.ok && (index.column() == Step || index.column() == Result))
            return errorColor();
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Time)
            return tr("Started %1, took %2")
                .arg(QDateTime::fromMSecsSinceEpoch(s.startedMs).toString(u"HH:mm:ss.zzz"_s),
                     durationText(s.elapsedMs));
        if (index.column() == Result)
            return resultTip(s);
        return data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case Step:
        return QString((s.ok ? u"✓ "_s : u"✗ "_s) + stepTitle(s.name));
    case Request:
        return s.method.isEmpty() ? tr("(no request)")
                                  : QString(s.method + u' ' + s.url.toString());
    case Status:
        if (s.status != 0)
            return QString::number(s.status);
        if (s.method.isEmpty())
            return u"—"_s;
        // The authorize step is answered by a redirect to Sonde's listener (or read headless),
        // not by a status Sonde sees: a step that worked got its answer.
        return s.ok ? tr("redirect") : tr("no answer");
    case Time:
        return durationText(s.elapsedMs);
    case Result:
        if (!s.ok)
            return s.error;
        if (s.chosen.isEmpty() || s.why.isEmpty())
            return QString(s.chosen + s.why);
        return QString(s.chosen + u" — "_s + s.why);
    }
    return {};
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "util/commandline.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Sonde {

void CommandLine::addFlag(const QString &name, FlagHandler taken)
{
    m_options.insert(name, {false, std::move(taken), {}});
}

void CommandLine::addValueOption(const QString &name, ValueHandler taken)
{
    m_options.insert(name, {true, {}, std::move(taken)});
}

void CommandLine::setPositionalHandler(ValueHandler taken)
{
    m_positionalHandler = std::move(taken);
}

void CommandLine::addHelpOption(const QStringList &names)
{
    m_helpNames = names;
}

void CommandLine::document(const QString &name, const QString &text, const QString &valueName)
{
    m_documented.append({name, valueName, text});
}

QString CommandLine::helpText(const QString &synopsis, const QString &description) const
{
    QList<std::pair<QString, QString>> rows;
    if (!m_helpNames.isEmpty())
        rows.append({m_helpNames.join(u", "_s), u"Displays help on commandline options."_s});
    if (!m_versionName.isEmpty())
        rows.append({m_versionName, u"Displays version information."_s});
    for (const Documented &d : m_documented)
        rows.append(
            {d.valueName.isEmpty() ? d.name : u"%1 <%2>"_s.arg(d.name, d.valueName), d.text});
    qsizetype width = 0;
    for (const auto &row : std::as_const(rows))
        width = std::max(width, row.first.size());
    QString out = u"Usage: %1\n%2\n\nOptions:\n"_s.arg(synopsis, description);
    // Wrapped at 79 columns, the continuation under the text, as QCommandLineParser does.
    const qsizetype indent = 2 + width + 2;
    const qsizetype room = std::max<qsizetype>(79 - indent, 20);
    for (const auto &[names, text] : std::as_const(rows)) {
        QString line = u"  "_s + names.leftJustified(width) + u"  "_s;
        qsizetype used = 0;
        for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
            if (used > 0 && used + 1 + word.size() > room) {
                line += u'\n' + QString(indent, u' ');
                used = 0;
            } else if (used > 0) {
                line += u' ';
                ++used;
            }
            line += word;
            used += word.size();
        }
        out += line + u'\n';
    }
    return out;
}

void CommandLine::addVersionOption()
{
    m_versionName = u"--version"_s;
}

CommandLine::Outcome CommandLine::refuse(Problem problem, const QString &option,
                                         const QString &text)
{
    m_problem = problem;
    m_problemOption = option;
    m_error = text;
    return Outcome::Refused;
}

CommandLine::Outcome CommandLine::parse(const QStringList &args)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        // A command's own words (a tool's name, its JSON, `-` for stdin) never start with
        // "--", so a word that does is always an option, even after them.
        if (m_helpNames.contains(a))
            return Outcome::Help;
        if (!a.startsWith("--"_L1)) {
            if (m_positionalHandler) {
                if (const QString why = m_positionalHandler(a); !why.isEmpty())
                    return refuse(Problem::BadPositional, a, why);
            }
            m_positional.append(a);
            continue;
        }
        if (!m_versionName.isEmpty() && a == m_versionName)
            return Outcome::Version;
        // Before asking for a value: a misspelt flag is unknown, not short of a value.
        const auto it = m_options.constFind(a);
        if (it == m_options.cend())
            return refuse(Problem::UnknownOption, a, u"unknown option %1"_s.arg(a));
        if (!it->takesValue) {
            m_set.append(a);
            if (it->flag)
                it->flag();
            continue;
        }
        if (i + 1 >= args.size())
            return refuse(Problem::MissingValue, a, u"%1 needs a value"_s.arg(a));
        const QString &v = args.at(++i);
        if (it->value) {
            if (const QString why = it->value(v); !why.isEmpty())
                return refuse(Problem::BadValue, a, why);
        }
        m_set.append(a);
        m_values.insert(a, v);
    }
    return Outcome::Parsed;
}

QString CommandLine::versionText()
{
    return QCoreApplication::applicationName() + u' ' + QCoreApplication::applicationVersion();
}

} // namespace Sonde

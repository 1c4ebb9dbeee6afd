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

void CommandLine::addHelpOption()
{
    m_helpName = u"--help"_s;
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
        if (!a.startsWith("--"_L1)) {
            if (m_positionalHandler) {
                if (const QString why = m_positionalHandler(a); !why.isEmpty())
                    return refuse(Problem::BadPositional, a, why);
            }
            m_positional.append(a);
            continue;
        }
        if (!m_helpName.isEmpty() && a == m_helpName)
            return Outcome::Help;
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

// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

namespace Sonde {

// A program's arguments read against a table of its options: the one argument parser of
// sonde-cli (its connection options, `run` and `history`) and sonde-demo-server, so the
// three read `--name value` alike and say a problem alike. Options are long only
// (`--name`) and are taken wherever they stand, after positional words too; a word that
// does not start with "--" is positional. Each handler runs as its option is read, so the
// problem said is the first one in the command line. `--help` and `--version` stop the
// reading where they stand, as a program answers them instead of running. The texts are
// the programs' own, so nothing here prints: the caller says the problem.
// Qt Core only, no thread of its own: the window's main can use it as well.
class CommandLine
{
public:
    enum class Outcome
    {
        Parsed,  // every word was read
        Help,    // --help was read (after the words before it)
        Version, // --version was read
        Refused, // problem() says why
    };
    enum class Problem
    {
        None,
        UnknownOption, // a "--word" not in the table
        MissingValue,  // an option that takes a value came last
        BadValue,      // a handler refused the value (the handler's text)
        BadPositional, // the positional handler refused a word (its text)
    };
    // Returns why the value is refused; empty when it is taken.
    using ValueHandler = std::function<QString(const QString &value)>;
    using FlagHandler = std::function<void()>;

    void addFlag(const QString &name, FlagHandler taken = {});
    void addValueOption(const QString &name, ValueHandler taken = {});
    // Words not starting with "--"; without a handler they are only collected.
    void setPositionalHandler(ValueHandler taken);
    // `names`: the window also takes Qt's usual "-h".
    void addHelpOption(const QStringList &names = {QStringLiteral("--help")});
    void addVersionOption();

    Outcome parse(const QStringList &args);

    // For a program whose --help is generated (the window's): each option's line, in the
    // order documented. `valueName` is shown as <valueName> for an option taking a value.
    void document(const QString &name, const QString &text, const QString &valueName = {});
    // "Usage: <synopsis>", the description, and the documented options in two columns, as
    // QCommandLineParser writes them.
    QString helpText(const QString &synopsis, const QString &description) const;

    // The positional words read (up to the problem, when there was one).
    QStringList positionalArguments() const { return m_positional; }
    // Each value option's last value, and whether a flag or option was given.
    QString value(const QString &name) const { return m_values.value(name); }
    bool isSet(const QString &name) const { return m_set.contains(name); }

    Problem problem() const { return m_problem; }
    QString problemOption() const { return m_problemOption; } // the option or word refused
    // "unknown option --x", "--x needs a value", or the handler's text.
    QString errorText() const { return m_error; }

    // "<application name> <version>", as every program answers --version (no newline).
    static QString versionText();

private:
    struct Option
    {
        bool takesValue = false;
        FlagHandler flag;
        ValueHandler value;
    };
    Outcome refuse(Problem problem, const QString &option, const QString &text);

    QHash<QString, Option> m_options;
    ValueHandler m_positionalHandler;
    QStringList m_helpNames;
    struct Documented
    {
        QString name, valueName, text;
    };
    QList<Documented> m_documented;
    QString m_versionName;
    QStringList m_positional;
    QHash<QString, QString> m_values;
    QStringList m_set;
    Problem m_problem = Problem::None;
    QString m_problemOption;
    QString m_error;
};

} // namespace Sonde

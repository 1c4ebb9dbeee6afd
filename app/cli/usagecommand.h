// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

namespace Sonde {

// The answer to a command line that runs nothing: --help and --version print on stdout and
// exit 0; refused arguments print one line on stderr and exit 2. A command like the others,
// so its output and exit status take the same path. Thread: the main thread.
class UsageCommand : public CliCommand
{
    Q_OBJECT
public:
    enum class Kind
    {
        Help,
        Version,
        Refused
    };

    // `text`: the usage or version text to print, or why the arguments were refused.
    UsageCommand(Kind kind, QString text, QObject *parent = nullptr);

    Kind kind() const { return m_kind; }
    // Prints, then finishes before it returns.
    void start() override;
    void interrupt(int signo) override;

private:
    Kind m_kind;
    QString m_text;
};

} // namespace Sonde

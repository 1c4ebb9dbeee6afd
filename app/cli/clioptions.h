// SPDX-License-Identifier: MIT
#pragma once

#include "cliserverrequesthandler.h"
#include "clistep.h"
#include "config/serverconfig.h"
#include "secretstorechooser.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace Sonde {

// Everything sonde-cli was asked to do, parsed from its arguments.
struct CliOptions
{
    ServerConfig server;
    CliServerRequestHandler::Policy policy;
    QString transcriptPath;
    QString historyPath; // --history: every event of the run into this SQLite file
    QString secretsFile; // --secrets-file: the opted-in encrypted store (docs/auth.md)
    QString logLevel;
    bool quiet = false;
    bool showSecrets = false;
    bool version = false; // --version: print it and leave
    QStringList command;  // e.g. {"tools", "call", "echo", "{...}"}
    QString configPath;   // --config, when the server came from a file
    bool timeoutGiven = false;
    // `doctor`'s own options (docs/doctor.md); refused with any other command.
    struct Doctor
    {
        QString format = QStringLiteral("text");
        QString out;
        QStringList only; // check ids
        bool allowWrites = false;
        bool given = false; // any of them was on the command line
    } doctor;
    // The command as a step, for a command that is one (not exec, auth, conformance-client).
    std::optional<CliStep> step;

    // Parses argv (without the program name). On failure returns false with a message (an
    // empty one for --help and --version, which are answered instead of run).
    static bool parse(const QStringList &args, CliOptions *out, QString *error);
    // Where an HTTP server's tokens live for this run, as docs/auth.md says (the keyring, the
    // --secrets-file store, else memory): `then` gets the choice once it is made, on
    // `context`'s thread. Tokens outlive the process where a keyring or the file keeps them,
    // so `auth login` then any command reuse them.
    void chooseSecretStore(QObject *context,
                           std::function<void(const SecretStoreChooser::Choice &)> then) const;
    static QString usage();
};

} // namespace Sonde

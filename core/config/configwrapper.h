// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// Puts `sonde-cli proxy` in a client's path by rewriting one server entry of the client's
// own config file (issue 31): Claude Desktop's claude_desktop_config.json, Claude Code's
// .mcp.json, Cursor's mcp.json ("mcpServers") and VS Code's mcp.json ("servers", JSONC).
// Only the bytes of that entry's "command" and "args" values change (a stdio entry: the
// client runs `sonde-cli proxy -- COMMAND ARGS…`, the original command and arguments kept
// as the file wrote them), or its "url" (an HTTP entry: the proxy's address, with the same
// path); comments, order, formatting and every other entry stay as they were. The entry as
// it was is kept beside the file (FILE.sonde-wrap.json), and unwrap() puts it back byte for
// byte, after checking that the entry is still the one wrap() wrote. Stateless; any thread.
class ConfigWrapper
{
public:
    struct Options
    {
        QString sondeCli;      // the absolute path of the sonde-cli the client will run
        QStringList proxyArgs; // options for the proxy, e.g. --control SOCK
        quint16 httpPort = 0;  // HTTP entries: the port the proxy will listen on
    };
    struct Entry
    {
        QString name;
        bool http = false;
        bool wrapped = false; // its command is a sonde-cli proxy (or its URL the proxy's)
        QString command;      // stdio
        QString url;          // HTTP
        QString target;       // HTTP, wrapped: the URL its proxy forwards to (the sidecar's)
    };
    struct Edit
    {
        QByteArray file;     // the whole file after the edit
        QByteArray original; // the entry's value as it was
        QByteArray replaced; // the entry's value as it is now
        QString target;      // HTTP: the URL the proxy must forward to
        QString error;       // one line; the rest is empty then
    };

    // Every entry of the file's server map, in file order, marked wrapped when `sidecar`
    // (the FILE.sonde-wrap.json wrapFile wrote) says so; nothing, with `error`, for a file
    // that is not a config with "mcpServers" or "servers".
    static std::optional<QList<Entry>> entries(const QByteArray &file, QString *error,
                                               const QByteArray &sidecar = {});
    static Edit wrap(const QByteArray &file, const QString &name, const Options &options);
    // Puts `original` back where wrap() wrote `replaced`; refuses when the entry is not
    // `replaced` any more (the user edited it since).
    static Edit unwrap(const QByteArray &file, const QString &name, const QByteArray &original,
                       const QByteArray &replaced);

    // The same on a file: a backup of the file as it was (FILE.sonde-backup), the entry kept
    // in FILE.sonde-wrap.json, the file replaced atomically. An empty string on success,
    // otherwise one line saying what failed; nothing is written then.
    static QString wrapFile(const QString &path, const QString &name, const Options &options,
                            Edit *done = nullptr);
    static QString unwrapFile(const QString &path, const QString &name, Edit *done = nullptr);
    static QString sidecarPath(const QString &path)
    {
        return path + QStringLiteral(".sonde-wrap.json");
    }
    static QString backupPath(const QString &path)
    {
        return path + QStringLiteral(".sonde-backup");
    }
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace Sonde {

// Saves a tool call into a collection file (docs/collections.md), for the window's "Save to
// collection…": a new file gets a name, the server and this one call; an existing collection
// keeps its name, its server and its calls, and gets this one at the end. What is written is
// indented the way the documentation shows a collection, one call a line, so that a person
// can read and edit it. A file that is not a collection is refused with the reason, and left
// as it was. Secrets never reach the file: an env variable whose name says it holds one is
// written as the placeholder ${env:NAME} (the variable of that name when the collection
// runs), a secret header is left out; both are named in `leftOut`. Pure; any thread.
class CollectionWriter
{
public:
    struct Call
    {
        QString name; // empty: the tool's name, made unique in the file
        QString tool;
        QJsonObject args;
        QJsonObject expect;
    };

    // The server as a collection's "server" entry: the fields of an mcp.json entry.
    static QJsonObject serverEntry(const ServerConfig &config, QStringList *leftOut);
    // What the call's answer showed, as an "expect": is_error, and a short text_contains (the
    // first line of the text, at most TextPrefixChars) when the answer has text.
    static constexpr int TextPrefixChars = 40;
    static QJsonObject expectFrom(const QJsonValue &result, bool rpcError,
                                  const QString &errorMessage);

    // Appends `call` to the collection at `path` (made when it does not exist), written whole
    // or not at all. `calls` is set to how many the file holds now.
    static bool append(const QString &path, const ServerConfig &server, const Call &call,
                       QStringList *leftOut, int *calls, QString *error);

    // The collection as text: name, server, then one call a line, then any other fields.
    static QByteArray format(const QJsonObject &collection);
};

} // namespace Sonde

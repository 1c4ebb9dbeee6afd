// SPDX-License-Identifier: MIT
#pragma once

#include <QLibrary>
#include <QStringList>

namespace Sonde {

// The modules loaded on first use (the keyring): the symbol
// `symbol` from the first of `candidates` that loads and has it, or null with what each
// candidate said in `tried`. QLibrary keeps a loaded module loaded for the process.
inline QFunctionPointer resolveModuleSymbol(const QStringList &candidates, const char *symbol,
                                            QStringList *tried)
{
    for (const QString &path : candidates) {
        QLibrary library(path);
        if (!library.load()) {
            tried->append(library.errorString());
            continue;
        }
        if (QFunctionPointer f = library.resolve(symbol))
            return f;
        tried->append(QStringLiteral("%1 has no %2").arg(path, QString::fromLatin1(symbol)));
    }
    return nullptr;
}

} // namespace Sonde

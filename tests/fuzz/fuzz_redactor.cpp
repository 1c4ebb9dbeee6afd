// SPDX-License-Identifier: MIT
// Redactor::redact: never crashes or stalls (its patterns run on everything Sonde writes
// down), and a session id it was told about never survives. The input is text, then
// after a NUL byte the session ids, one per line.
#include "fuzzsupport.h"
#include "transcript/redactor.h"

#include <QRegularExpression>

using namespace Sonde;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype nul = input.indexOf('\0');
    const QString text = QString::fromUtf8(nul < 0 ? input : input.left(nul));
    QStringList ids;
    if (nul >= 0)
        ids = QString::fromUtf8(input.mid(nul + 1)).split(u'\n', Qt::SkipEmptyParts);
    const QString out = Redactor::redact(text, ids);
    // Only ids shaped like real ones (a UUID or a long token): a two-letter id may also be
    // a piece of the mask itself.
    static const QRegularExpression realistic(u"^[A-Za-z0-9-]{16,}$"_s);
    for (const QString &id : std::as_const(ids))
        if (realistic.match(id).hasMatch())
            FUZZ_CHECK(!out.contains(id));
    return 0;
}

// SPDX-License-Identifier: MIT
#include "transcript/redactor.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Sonde {

QString Redactor::redact(const QString &text, const QStringList &sessionIds)
{
    static const QRegularExpression bearer(u"(Bearer\\s+)[A-Za-z0-9._~+/=-]+"_s,
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression skKey(u"\\bsk-[A-Za-z0-9_-]{8,}"_s);
    static const QRegularExpression assigned(
        u"\\b((?:api[_-]?key|access[_-]?token|session[_-]?id|token|key|password|passwd|secret)\\s*[=:]\\s*\"?)([^\\s\"&,;}]+)"_s,
        QRegularExpression::CaseInsensitiveOption);
    const QString mask = QString::fromLatin1(Mask);
    QString out = text;
    out.replace(bearer, u"\\1"_s + mask);
    out.replace(skKey, mask);
    out.replace(assigned, u"\\1"_s + mask);
    for (const QString &id : sessionIds)
        if (id.size() >= 4)
            out.replace(id, mask);
    return out;
}

} // namespace Sonde

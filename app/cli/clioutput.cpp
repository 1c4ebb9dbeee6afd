// SPDX-License-Identifier: MIT
#include "clioutput.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde::CliOutput {

namespace {

struct Verbatim
{
    QByteArray token; // as it stands in the serialized answer, quotes included
    QByteArray source;
    qsizetype from = 0;
    qsizetype size = 0;
};
// Few at a time (one per answer printed): a list is enough.
thread_local QList<Verbatim> t_verbatim;
thread_local quint64 t_nextToken = 0;

void write(const char *data, qsizetype size)
{
    std::fwrite(data, 1, size_t(size), stdout);
}

} // namespace

QString verbatim(QByteArray source, qsizetype from, qsizetype size)
{
    // Characters JSON writes as they are, and no text a server sends contains by chance.
    const QString token =
        u"sonde-verbatim-%1-%2"_s.arg(quintptr(&t_verbatim), 0, 16).arg(++t_nextToken);
    t_verbatim.append({'"' + token.toLatin1() + '"', std::move(source), from, size});
    return token;
}

void print(const QJsonObject &answer, Layout layout)
{
    QByteArray out = QJsonDocument(answer).toJson(layout == Layout::Line ? QJsonDocument::Compact
                                                                         : QJsonDocument::Indented);
    if (layout == Layout::Line)
        out.append('\n');
    qsizetype at = 0;
    // Each held string where its token stands, straight from its source; the rest as it is.
    for (qsizetype i = 0; i < t_verbatim.size();) {
        const Verbatim &v = t_verbatim.at(i);
        const qsizetype where = out.indexOf(v.token, at);
        if (where < 0) {
            ++i;
            continue;
        }
        write(out.constData() + at, where + 1 - at); // through the opening quote
        write(v.source.constData() + v.from, v.size);
        at = where + v.token.size() - 1; // from the closing quote
        t_verbatim.removeAt(i);
    }
    write(out.constData() + at, out.size() - at);
    std::fflush(stdout);
}

void complain(const QString &message, const QString &who)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(who), qPrintable(message));
    std::fflush(stderr);
}

int usageError(const QString &why, const QString &who)
{
    // One line, as scripts read it; the whole usage is one --help away.
    complain(why + u" (sonde-cli --help shows the usage)"_s, who);
    return 2;
}

} // namespace Sonde::CliOutput

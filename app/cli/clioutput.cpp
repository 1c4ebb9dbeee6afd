// SPDX-License-Identifier: MIT
#include "clioutput.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde::CliOutput {

void print(const QJsonObject &answer, Layout layout)
{
    QByteArray out = QJsonDocument(answer).toJson(layout == Layout::Line ? QJsonDocument::Compact
                                                                         : QJsonDocument::Indented);
    if (layout == Layout::Line)
        out.append('\n');
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
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

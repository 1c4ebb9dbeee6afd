// SPDX-License-Identifier: MIT
#include "session/sessionera.h"
#include "util/version.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Sonde {

QJsonObject SessionEra::clientInfo()
{
    return QJsonObject{{"name"_L1, u"sonde"_s},
                       {"title"_L1, u"Sonde"_s},
                       {"version"_L1, QCoreApplication::applicationVersion().isEmpty()
                                          ? QStringLiteral(SONDE_VERSION)
                                          : QCoreApplication::applicationVersion()}};
}

QString SessionEra::name() const
{
    const std::optional<ServerConfig::Era> era = kind();
    return era ? ServerConfig::eraName(*era) : QString();
}

} // namespace Sonde

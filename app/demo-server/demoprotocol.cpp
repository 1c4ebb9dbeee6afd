// SPDX-License-Identifier: MIT
#include "demoprotocol.h"

using namespace Qt::StringLiterals;

namespace Sonde::DemoProtocol {

QStringList legacyVersions()
{
    return {QString::fromLatin1(LegacyVersion), u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
}

QStringList modernVersions(DemoEra era)
{
    if (era == DemoEra::Legacy)
        return {};
    return {QString::fromLatin1(ModernVersion)};
}

QStringList supportedVersions(DemoEra era)
{
    QStringList versions = modernVersions(era);
    if (era != DemoEra::Modern)
        versions.append(QString::fromLatin1(LegacyVersion));
    return versions;
}

std::optional<DemoEra> parseEra(const QString &name)
{
    if (name == "legacy"_L1)
        return DemoEra::Legacy;
    if (name == "modern"_L1)
        return DemoEra::Modern;
    if (name == "both"_L1)
        return DemoEra::Both;
    return std::nullopt;
}

} // namespace Sonde::DemoProtocol

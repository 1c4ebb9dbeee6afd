// SPDX-License-Identifier: MIT
#include "demoprotocol.h"

using namespace Qt::StringLiterals;

namespace Sonde::DemoProtocol {

QStringList legacyVersions()
{
    return {QString::fromLatin1(LegacyVersion), u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
}

QStringList rev20260728Versions(DemoEra era)
{
    if (era == DemoEra::Initialize)
        return {};
    return {QString::fromLatin1(Rev20260728Version)};
}

QStringList supportedVersions(DemoEra era)
{
    QStringList versions = rev20260728Versions(era);
    if (era != DemoEra::Rev20260728)
        versions.append(QString::fromLatin1(LegacyVersion));
    return versions;
}

std::optional<DemoEra> parseEra(const QString &name)
{
    // "legacy" and "modern" are the names before the next revision made them wrong.
    if (name == "initialize"_L1 || name == "legacy"_L1)
        return DemoEra::Initialize;
    if (name == "2026-07-28"_L1 || name == "modern"_L1)
        return DemoEra::Rev20260728;
    if (name == "both"_L1)
        return DemoEra::Both;
    return std::nullopt;
}

} // namespace Sonde::DemoProtocol

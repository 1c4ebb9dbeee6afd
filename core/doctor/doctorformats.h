// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorfinding.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

class Redactor;

// A doctor report as each reader wants it (docs/doctor.md): text for a terminal, JSON for
// scripts, JUnit XML (one test case per check that ran, a failure for each error) and SARIF
// 2.1.0 (a rule per check with its help and spec link, a result per finding) for CI. Every
// frame and message goes through the redactor first. Pure; any thread.
namespace DoctorFormats {
enum class Format
{
    Text,
    Json,
    JUnit,
    Sarif
};
std::optional<Format> formatFromName(const QString &name);

QJsonObject toJson(const DoctorReport &report, const Redactor &redactor);
QByteArray text(const DoctorReport &report, const Redactor &redactor);
QByteArray junit(const DoctorReport &report, const Redactor &redactor);
// `artifactUri`: where a result points (the config file the server came from, its URL or
// program), so code scanning has a location to file it under.
QByteArray sarif(const DoctorReport &report, const Redactor &redactor, const QString &artifactUri);
QByteArray render(Format format, const DoctorReport &report, const Redactor &redactor,
                  const QString &artifactUri);
} // namespace DoctorFormats

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"

#include <QList>
#include <QString>
#include <QStringView>

namespace Sonde {

// How much a broken rule weighs: a MUST of the spec is an error, a SHOULD a warning, and what
// a developer wants to know without the spec asking for it (a server that ignores stdin's end)
// is information.
enum class DoctorSeverity
{
    Error,
    Warning,
    Info
};
template <> struct EnumNames<DoctorSeverity>
{
    static constexpr const char *const names[] = {"error", "warning", "info"};
};

// One check of the doctor, as users' CI filters on it: its id never changes meaning. What it
// rests on is quoted from the spec (the sentence, its section and revision, a link), and
// `fix` says what a server developer does about it (docs/doctor.md says more).
struct DoctorCheck
{
    // Where a check can apply at all; a check outside its scope is skipped, never failed.
    enum class Transport
    {
        Any,
        Http,
        Stdio
    };
    enum class Era
    {
        Any,
        Initialize,
        Rev20260728
    };
    // Passive checks read the messages of any session (live in the window, too); active ones
    // are probes only a doctor run sends.
    enum class Kind
    {
        Passive,
        Active
    };

    QString id;
    DoctorSeverity severity = DoctorSeverity::Error;
    Kind kind = Kind::Passive;
    Transport transport = Transport::Any;
    Era era = Era::Any;
    QString title;    // what is wrong, in a few words
    QString rule;     // the spec's sentence, verbatim
    QString revision; // the spec revision the sentence is from
    QString section;  // its file and heading, e.g. "basic/transports.mdx, Session Management"
    QString url;      // the section on the spec's site
    QString fix;      // what to change in the server

    bool appliesTo(bool http, bool rev20260728) const;
};

// Every check the doctor knows, in the order reports list them.
namespace DoctorCatalog {
const QList<DoctorCheck> &all();
// The check with this id, or null.
const DoctorCheck *find(QStringView id);
} // namespace DoctorCatalog

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include "doctor/doctorcheck.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace Sonde {

class Redactor;

// What a finding rests on: the exact request and response (a frame, or an HTTP exchange as
// text), and where the response sits in the run's transcript (its event index, -1 when the
// exchange never went through the session: a raw probe).
struct DoctorEvidence
{
    QByteArray request;
    QByteArray response;
    qint64 transcriptIndex = -1;
    qint64 timeMs = 0; // the engine's clock when the response came (0 for a raw probe)
    int generation = 0;
};

// One broken rule, seen once. The check says what rule; `message` says what this server did.
struct DoctorFinding
{
    QString checkId;
    DoctorSeverity severity = DoctorSeverity::Error;
    QString message;
    DoctorEvidence evidence;
    bool live = false; // from a passive lint of a session, not a doctor run's probe

    // The JSON the report carries (docs/doctor.md), with the check's rule and link, the
    // evidence passed through `redactor` (null: as it came), each frame cut at 64 KiB.
    QJsonObject toJson(const Redactor *redactor) const;
};

// The evidence of a finding is cut here when written: a 50 MB answer proves no more than its
// first 64 KiB do.
inline constexpr qsizetype DoctorEvidenceLimit = 64 * 1024;

// A whole doctor run: which checks ran, which were skipped and why, what was found.
struct DoctorReport
{
    enum class CheckStatus
    {
        Passed,
        Failed,
        Skipped
    };
    struct ToolCall
    {
        QString name;
        bool readOnly = true;
        QString outcome; // "ok", "error", "tool-error", "timeout"
        qint64 ms = 0;
    };

    QString server;
    QString target; // the URL, or the command line
    QString transport;
    QString era;
    QString protocolVersion;
    QJsonObject serverInfo;
    bool connected = false;
    bool allowWrites = false;
    bool stopped = false; // ended early (a signal, the window's Stop): the rest is skipped
    qint64 startedMs = 0; // wall clock, ms since the epoch
    qint64 durationMs = 0;
    QStringList ran;                // check ids that ran, in catalog order
    QMap<QString, QString> skipped; // check id -> why it did not run
    QList<DoctorFinding> findings;
    QList<ToolCall> toolCalls;

    CheckStatus statusOf(const QString &checkId) const;
    int count(DoctorSeverity severity) const;
    // 0 without an error finding, 1 with one, 2 when the server could not be reached.
    int exitCode() const;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::DoctorFinding)
Q_DECLARE_METATYPE(Sonde::DoctorReport)

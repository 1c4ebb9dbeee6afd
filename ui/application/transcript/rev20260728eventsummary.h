// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// The lifecycle events of the 2026-07-28 revision (era-chosen, input-required,
// listen-acknowledged, listen-ended, listen-dropped) as the transcript shows them: one
// sentence, the method the method filter finds it under and the request id it is about (so a
// search for the id finds it beside the frames). Stateless; any thread.
struct Rev20260728EventSummary
{
    Q_DECLARE_TR_FUNCTIONS(Rev20260728EventSummary)
public:
    QString summary;
    QString method;
    QString id;
    bool isError = false;

    // nullopt for every other event.
    static std::optional<Rev20260728EventSummary> of(const TranscriptEvent &e);
    // A subscriptions/listen filter (or the granted part of one) in words, one item per thing
    // it asks for: "tool list changes", "updates of demo://counter".
    static QStringList filterItems(const QJsonObject &filter);
    // The items of `requested` that `granted` does not have.
    static QStringList notGranted(const QJsonObject &requested, const QJsonObject &granted);
};

} // namespace Sonde

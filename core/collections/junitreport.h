// SPDX-License-Identifier: MIT
#pragma once

#include "collectionrun.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace Sonde {

// A collection run as JUnit XML, the format CI systems read: one <testsuite> named after the
// collection, one <testcase> per call (time in seconds), a <failure> with the reasons for
// each call that failed. A run that could not connect is one <error> testcase.
class JUnitReport
{
public:
    static QByteArray toXml(const QString &suite, const QList<CollectionRun::Result> &results,
                            const QString &connectionError, const QDateTime &startedAt,
                            qint64 totalMs);
    // Written whole or not at all (QSaveFile); on failure `error` says why.
    static bool write(const QString &path, const QByteArray &xml, QString *error);
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "junitreport.h"

#include <QSaveFile>
#include <QXmlStreamWriter>

using namespace Qt::StringLiterals;

namespace Sonde {

static QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 3);
}

QByteArray JUnitReport::toXml(const QString &suite, const QList<CollectionRun::Result> &results,
                              const QString &connectionError, const QDateTime &startedAt,
                              qint64 totalMs)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    const qsizetype failures =
        std::count_if(results.cbegin(), results.cend(), [](const auto &r) { return !r.passed; });
    const bool unreachable = !connectionError.isEmpty();
    w.writeStartElement(u"testsuite"_s);
    w.writeAttribute(u"name"_s, suite);
    w.writeAttribute(u"tests"_s, QString::number(unreachable ? 1 : results.size()));
    w.writeAttribute(u"failures"_s, QString::number(failures));
    w.writeAttribute(u"errors"_s, QString::number(unreachable ? 1 : 0));
    w.writeAttribute(u"skipped"_s, u"0"_s);
    w.writeAttribute(u"time"_s, seconds(totalMs));
    w.writeAttribute(u"timestamp"_s, startedAt.toUTC().toString(Qt::ISODate));
    if (unreachable) {
        w.writeStartElement(u"testcase"_s);
        w.writeAttribute(u"classname"_s, suite);
        w.writeAttribute(u"name"_s, u"connect"_s);
        w.writeAttribute(u"time"_s, seconds(totalMs));
        w.writeStartElement(u"error"_s);
        w.writeAttribute(u"message"_s, connectionError);
        w.writeCharacters(connectionError);
        w.writeEndElement();
        w.writeEndElement();
    }
    for (const CollectionRun::Result &r : results) {
        w.writeStartElement(u"testcase"_s);
        w.writeAttribute(u"classname"_s, suite);
        w.writeAttribute(u"name"_s, r.name);
        w.writeAttribute(u"time"_s, seconds(r.elapsedMs));
        if (!r.passed) {
            w.writeStartElement(u"failure"_s);
            w.writeAttribute(u"message"_s, r.reasons.value(0));
            w.writeAttribute(u"type"_s, r.method);
            w.writeCharacters(r.reasons.join(u'\n'));
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

bool JUnitReport::write(const QString &path, const QByteArray &xml, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(xml) != xml.size() || !f.commit()) {
        *error = u"cannot write the JUnit report %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once
// JSON test data for every kind of test, written without raw strings (moc cannot read raw string
// literals): JSON_TEXT({"a" : 1}) is the text of its argument.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#define JSON_TEXT(...) #__VA_ARGS__

namespace JsonTestData {

inline QJsonDocument parse(const QByteArray &json)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    if (e.error != QJsonParseError::NoError)
        qFatal("bad test data: %s in %s", qPrintable(e.errorString()), json.constData());
    return doc;
}

inline QJsonObject object(const QByteArray &json)
{
    return parse(json).object();
}

inline QJsonArray array(const QByteArray &json)
{
    return parse(json).array();
}

// Compared as text, so a failure prints both objects.
inline QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// An object as compact() writes it (keys sorted, no spaces), from JSON written out in a test.
inline QByteArray text(const QByteArray &json)
{
    return compact(object(json));
}

} // namespace JsonTestData

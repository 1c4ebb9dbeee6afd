// SPDX-License-Identifier: MIT
// Rev20260728HeaderValidator: the demo server's side of the header codec (=?base64?...?=) and of
// Server Validation for x-mcp-header parameters of every primitive type and depth.
#include "protocol/jsonrpcmessage.h"
#include "rev20260728headervalidator.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

#define JSON_TEXT(...) #__VA_ARGS__

using Headers = QHash<QByteArray, QByteArray>;

class TestRev20260728HeaderValidator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headerValuesDecode_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("text");
        QTest::newRow("a plain value is itself") << QByteArray("us-west1") << true << u"us-west1"_s;
        QTest::newRow("a tab inside is allowed") << QByteArray("a\tb") << true << u"a\tb"_s;
        QTest::newRow("the sentinel form is base64 of UTF-8")
            << QByteArray("=?base64?SGVsbG8sIOS4lueVjA==?=") << true << u"Hello, 世界"_s;
        QTest::newRow("an encoded sentinel-looking literal decodes to it")
            << QByteArray("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=") << true << u"=?base64?literal?="_s;
        QTest::newRow("an empty encoded value is empty") << QByteArray("=?base64?"
                                                                       "?=")
                                                         << true << QString();
        QTest::newRow("bad base64 inside the sentinel is refused")
            << QByteArray("=?base64?not*base64?=") << false << QString();
        QTest::newRow("a raw UTF-8 byte is refused") << u"Zürich"_s.toUtf8() << false << QString();
        QTest::newRow("a control character is refused")
            << QByteArray("a\x01") << false << QString();
        QTest::newRow("DEL is refused") << QByteArray("a\x7f") << false << QString();
    }

    void headerValuesDecode()
    {
        QFETCH(QByteArray, raw);
        QFETCH(bool, valid);
        QFETCH(QString, text);
        const std::optional<QString> decoded = Rev20260728HeaderValidator::decodeValue(raw);
        QCOMPARE(decoded.has_value(), valid);
        if (valid)
            QCOMPARE(*decoded, text);
    }

    void parameterHeadersMatchTheirArguments_data()
    {
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<Headers>("params"); // the Mcp-Param-* headers sent
        QTest::addColumn<QString>("named");  // the header a refusal names; empty: accepted
        const QByteArray all = JSON_TEXT({"count" : 42, "on" : true, "where" : {"region" : "eu"}});
        const Headers good{
            {"mcp-param-count", "42"}, {"mcp-param-on", "true"}, {"mcp-param-region", "eu"}};
        QTest::newRow("every annotated argument mirrored is accepted") << all << good << QString();
        Headers decimal = good;
        decimal.insert("mcp-param-count", "42.0");
        QTest::newRow("an integer is compared as a number") << all << decimal << QString();
        Headers other = good;
        other.insert("mcp-param-count", "43");
        QTest::newRow("another number is a mismatch") << all << other << u"Mcp-Param-Count"_s;
        Headers upper = good;
        upper.insert("mcp-param-on", "True");
        QTest::newRow("a boolean is lower-case true or false") << all << upper << u"Mcp-Param-On"_s;
        Headers nested = good;
        nested.remove("mcp-param-region");
        QTest::newRow("a nested annotated property needs its header too")
            << all << nested << u"Mcp-Param-Region"_s;
        QTest::newRow("a null argument needs no header")
            << QByteArray(JSON_TEXT({"count" : null})) << Headers{} << QString();
        QTest::newRow("an absent argument needs no header")
            << QByteArray("{}") << Headers{} << QString();
    }

    void parameterHeadersMatchTheirArguments()
    {
        QFETCH(QByteArray, arguments);
        QFETCH(Headers, params);
        QFETCH(QString, named);
        const QJsonObject tool =
            QJsonDocument::fromJson(JSON_TEXT({
                "name" : "t",
                "inputSchema" : {
                    "type" : "object",
                    "properties" : {
                        "count" : {"type" : "integer", "x-mcp-header" : "Count"},
                        "on" : {"type" : "boolean", "x-mcp-header" : "On"},
                        "where" : {
                            "type" : "object",
                            "properties" :
                                {"region" : {"type" : "string", "x-mcp-header" : "Region"}}
                        }
                    }
                }
            })).object();
        const QJsonObject params_{
            {"name"_L1, "t"_L1},
            {"arguments"_L1, QJsonDocument::fromJson(arguments).object()},
            {"_meta"_L1,
             QJsonObject{{"io.modelcontextprotocol/protocolVersion"_L1, "2026-07-28"_L1}}}};
        Headers headers = params;
        headers.insert("mcp-protocol-version", "2026-07-28");
        headers.insert("mcp-method", "tools/call");
        headers.insert("mcp-name", "t");
        const QString why = Rev20260728HeaderValidator::check(
            headers, JsonRpcMessage::request(1, u"tools/call"_s, params_), tool);
        if (named.isEmpty())
            QVERIFY2(why.isEmpty(), qPrintable(why));
        else
            QVERIFY2(why.contains(named), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestRev20260728HeaderValidator)
#include "tst_rev20260728headervalidator.moc"

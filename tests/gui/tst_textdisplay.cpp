// SPDX-License-Identifier: MIT
// What a text view is given of a server's text: capped, with a note of what was left out,
// unwrapped when a line is too long to lay out wrapped, and UTF-8 never cut mid-character.
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

class TestTextDisplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aTextIsShownWholeOrCutWithANote_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qsizetype>("omitted");
        QTest::addColumn<bool>("longLines");
        const qsizetype max = TextDisplay::MaxShownChars;
        QTest::newRow("a short text is shown whole and wrapped")
            << u"one\ntwo"_s << qsizetype(0) << false;
        QTest::newRow("a text at the limit is shown whole")
            << QString(max / 100, u'\n').replace(u"\n"_s, QString(99, u'a') + u'\n') << qsizetype(0)
            << false;
        const QString over = QString(QString(99, u'b') + u'\n').repeated(int(max / 100) + 50);
        QTest::newRow("a text over the limit is cut and the rest counted")
            << over << over.size() - max << false;
        QTest::newRow("one line longer than a wrapped view can lay out turns wrapping off")
            << QString(TextDisplay::MaxWrappedLine + 1, u'x') << qsizetype(0) << true;
        QTest::newRow("a 5 MB line is cut to the limit and not wrapped")
            << QString(5 * 1024 * 1024, u'y') << qsizetype(5 * 1024 * 1024 - max) << true;
    }
    void aTextIsShownWholeOrCutWithANote()
    {
        QFETCH(QString, text);
        QFETCH(qsizetype, omitted);
        QFETCH(bool, longLines);
        const TextDisplay::Fitted f = TextDisplay::fit(text, u"in Save answer…"_s);
        QCOMPARE(f.omitted, omitted);
        QCOMPARE(f.longLines, longLines);
        if (omitted == 0) {
            QCOMPARE(f.text, text);
        } else {
            QVERIFY(f.text.startsWith(text.left(TextDisplay::MaxShownChars)));
            QVERIFY2(f.text.contains(QLocale().toString(omitted)) &&
                         f.text.endsWith(u"the rest is in Save answer…"_s),
                     qPrintable(f.text.right(200)));
        }
        QPlainTextEdit view;
        TextDisplay::show(&view, text);
        QCOMPARE(view.lineWrapMode(),
                 longLines ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    }

    void utf8IsDecodedOnlyUpToTheLimitAndNeverMidCharacter_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qsizetype>("maxChars");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<qsizetype>("omittedBytes");
        QTest::newRow("ASCII under the limit is decoded whole")
            << QByteArray("abc") << qsizetype(10) << u"abc"_s << qsizetype(0);
        QTest::newRow("ASCII over the limit is cut at it")
            << QByteArray("abcdef") << qsizetype(4) << u"abcd"_s << qsizetype(2);
        QTest::newRow("two-byte characters are cut between characters")
            << QString(6, QChar(0xe9)).toUtf8() << qsizetype(4) << QString(4, QChar(0xe9))
            << qsizetype(4);
        QTest::newRow("a four-byte character at the cut is left out whole")
            << (QByteArray("ab") + QString::fromUcs4(U"\U0001F600").toUtf8() + "cd") << qsizetype(2)
            << u"ab"_s << qsizetype(6);
    }
    void utf8IsDecodedOnlyUpToTheLimitAndNeverMidCharacter()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(qsizetype, maxChars);
        QFETCH(QString, shown);
        QFETCH(qsizetype, omittedBytes);
        qsizetype omitted = -1;
        QCOMPARE(TextDisplay::fromUtf8(bytes, maxChars, &omitted), shown);
        QCOMPARE(omitted, omittedBytes);
    }

    void aLogLineIsCutWithWhatWasCut()
    {
        QCOMPARE(TextDisplay::logLine(u"short"_s), u"short"_s);
        const QString cut = TextDisplay::logLine(QString(TextDisplay::MaxLogLine + 123, u'z'));
        QVERIFY(cut.startsWith(QString(TextDisplay::MaxLogLine, u'z')));
        QVERIFY2(cut.endsWith(u"(123 more characters)"_s), qPrintable(cut.right(60)));
    }

    void aJsonViewShowsAFiftyMegabyteFrameCappedWithoutParsingIt()
    {
        const QByteArray frame = QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":"
                                            "[{\"type\":\"text\",\"text\":\"") +
                                 QByteArray(50 * 1024 * 1024, 'x') + "\"}]}}";
        JsonView view;
        QElapsedTimer timer;
        timer.start();
        view.setJson(frame, u"in the exported transcript"_s);
        qInfo("50 MB frame shown in %lld ms", timer.elapsed());
        QVERIFY(view.toPlainText().size() < TextDisplay::MaxShownChars + 1000);
        QVERIFY(view.toPlainText().startsWith(u"{\"jsonrpc\""_s));
        QVERIFY(view.toPlainText().endsWith(u"the rest is in the exported transcript"_s));
        QCOMPARE(view.lineWrapMode(), QPlainTextEdit::NoWrap);
        // A small document is still reformatted (indented) and wrapped.
        view.setJson(JSON_TEXT({"a" : {"b" : [ 1, 2 ]}}));
        QVERIFY(view.toPlainText().contains(u"\n        \"b\": ["_s));
        QCOMPARE(view.lineWrapMode(), QPlainTextEdit::WidgetWidth);
    }
};

QTEST_MAIN(TestTextDisplay)
#include "tst_textdisplay.moc"

// SPDX-License-Identifier: MIT
// What the answer view shows of a big tool answer: its result cut from the frame it came in,
// only when that frame is the answer's own.
#include "application/tools/answerpreview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// A tools/call answer as a server writes it, with `text` and what comes after it.
CallOutcome outcome(qsizetype textBytes, const QJsonValue &frameId, bool withFrame = true)
{
    const QByteArray text(textBytes, 'x');
    const QByteArray frame =
        "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + text +
        "\"}],\"structuredContent\":{\"n\":7},\"isError\":false},\"id\":" +
        QJsonDocument(QJsonArray{frameId}).toJson(QJsonDocument::Compact).mid(1).chopped(1) + "}";
    CallOutcome o;
    o.method = u"tools/call"_s;
    o.requestId = 4;
    o.result = QJsonDocument::fromJson(frame).object().value("result"_L1);
    if (withFrame)
        o.frame = frame;
    return o;
}

} // namespace

class TestAnswerPreview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void onlyABigAnswerInItsOwnFrameIsShownCut_data()
    {
        QTest::addColumn<CallOutcome>("outcome");
        QTest::addColumn<bool>("cut");
        const qsizetype big = 3 * AnswerPreview::BigAnswerBytes;
        QTest::newRow("a small answer is shown from its parsed result")
            << outcome(1000, 4) << false;
        QTest::newRow("a big answer is cut from its own frame") << outcome(big, 4) << true;
        QTest::newRow("a frame with another id is not taken for the answer")
            << outcome(big, 5) << false;
        QTest::newRow("a frame whose id is the same number as text is not the answer")
            << outcome(big, u"4"_s) << false;
        QTest::newRow("an answer without its frame (pages, a batch) is shown whole")
            << outcome(big, 4, false) << false;
    }
    void onlyABigAnswerInItsOwnFrameIsShownCut()
    {
        QFETCH(CallOutcome, outcome);
        QFETCH(bool, cut);
        const std::optional<AnswerPreview> p = AnswerPreview::of(outcome);
        QCOMPARE(p.has_value(), cut);
        if (!cut)
            return;
        const QJsonObject result = p->result.toObject();
        const QString text = result.value("content"_L1)[0]["text"_L1].toString();
        QVERIFY(text.startsWith(u"xxxx"_s));
        QVERIFY(text.endsWith(u'…'));
        QVERIFY(text.size() <= AnswerPreview::CutStringBytes);
        QCOMPARE(p->frameBytes, outcome.frame.size());
        QCOMPARE(p->cutBytes, 3 * AnswerPreview::BigAnswerBytes - (text.size() - 1));
        // What follows the cut string is all there.
        QCOMPARE(result.value("structuredContent"_L1).toObject(), (QJsonObject{{"n"_L1, 7}}));
        QCOMPARE(result.value("isError"_L1), QJsonValue(false));
    }
};

QTEST_GUILESS_MAIN(TestAnswerPreview)
#include "tst_answerpreview.moc"

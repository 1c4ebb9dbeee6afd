// SPDX-License-Identifier: MIT
#include "protocol/error.h"

#include <QJsonArray>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestError : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsKindStatusCodeAndCauseChain()
    {
        Error root = Error::transport(u"broken pipe"_s, Error::Condition::Closed);
        Error mid = Error::remote(-32000, u"Bad Request: No valid session ID provided"_s);
        mid.setHttpStatus(400).setCause(root);
        Error top = Error::protocol(u"call failed"_s);
        top.setCause(mid);

        QCOMPARE(top.cause()->httpStatus().value_or(0), 400);
        QCOMPARE(top.cause()->jsonRpcCode().value_or(0), -32000);
        QCOMPARE(top.cause()->cause()->condition(), Error::Condition::Closed);
        const QJsonObject j = top.toJson();
        QCOMPARE(j.value("kind"_L1).toString(), u"protocol"_s);
        QCOMPARE(j.value("cause"_L1).toObject().value("http_status"_L1).toInt(), 400);
        QCOMPARE(
            j.value("cause"_L1).toObject().value("cause"_L1).toObject().value("kind"_L1).toString(),
            u"transport"_s);
    }

    void groupsCarryTheirChildren()
    {
        Error group(Error::Kind::Transport, u"task group failed"_s);
        group.addChild(Error::application(u"tool failed"_s)).addChild(Error::cancelled(u"user"_s));
        QCOMPARE(group.children().size(), 2);
        QCOMPARE(group.toJson().value("children"_L1).toArray().size(), 2);
    }

    void aTwentyThousandDeepChainIsBuiltPrintedAndDestroyedWithoutRecursion()
    {
        Error e = Error::transport(u"bottom"_s);
        for (int i = 0; i < 20'000; ++i) {
            Error next = Error::protocol(u"level %1"_s.arg(i));
            next.setCause(e);
            e = std::move(next);
        }
        const QJsonObject j = e.toJson(64);
        int depth = 0;
        QJsonObject node = j;
        while (node.contains("cause"_L1)) {
            node = node.value("cause"_L1).toObject();
            ++depth;
        }
        QCOMPARE(depth, 63);
        QVERIFY(node.value("cause_truncated"_L1).toBool());
        // Leaving scope destroys the chain: the test passes if the stack survives.
    }

    void aDefaultErrorIsNoError()
    {
        QVERIFY(!Error().isError());
        QVERIFY(Error::timeout(u"t"_s).isError());
    }
};

QTEST_APPLESS_MAIN(TestError)
#include "tst_error.moc"

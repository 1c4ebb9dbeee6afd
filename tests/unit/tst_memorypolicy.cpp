// SPDX-License-Identifier: MIT
// The programs' allocator policy: a large block freed goes back to the system, and stays so
// after a larger one was freed (glibc would otherwise raise its threshold past it).
#include "util/memorypolicy.h"

#include <QTest>

#include <malloc.h>

#include <cstdlib>
#include <cstring>

using namespace Sonde;

class TestMemoryPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aLargeBlockIsMappedEvenAfterALargerOneWasFreed()
    {
        MemoryPolicy::returnLargeBlocksWhenFreed();
        // A 4 MiB block, mapped and freed: glibc alone would now serve blocks up to 4 MiB
        // from its heap, where freed pages stay.
        void *big = std::malloc(4 << 20);
        QVERIFY(big);
        std::memset(big, 1, 4 << 20);
        std::free(big);
        const auto mapped = [] { return qint64(mallinfo2().hblkhd); };
        const qint64 before = mapped();
        void *block = std::malloc(2 * MemoryPolicy::LargeBlockBytes);
        QVERIFY(block);
        std::memset(block, 1, 2 * MemoryPolicy::LargeBlockBytes);
        QVERIFY2(mapped() - before >= 2 * MemoryPolicy::LargeBlockBytes,
                 qPrintable(QString::number(mapped() - before)));
        std::free(block);
        QCOMPARE(mapped(), before); // and given back when freed
    }
};

QTEST_GUILESS_MAIN(TestMemoryPolicy)
#include "tst_memorypolicy.moc"

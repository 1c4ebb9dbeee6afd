// SPDX-License-Identifier: MIT
// A writer for tst_history_kill: appends batches of BatchSize events to the history at
// argv[1] as fast as it can and prints the total after each commit, until it is killed.
#include "historystore.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3)
        return 2;
    const int batchSize = QByteArray(argv[2]).toInt();
    Sonde::HistoryStore store;
    QString error;
    if (!store.open(QString::fromLocal8Bit(argv[1]), &error, u"flood"_s)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    qint64 total = 0;
    for (;;) {
        Sonde::TranscriptBatch batch;
        for (int i = 0; i < batchSize; ++i) {
            Sonde::TranscriptEvent e;
            e.timeMs = total + i;
            e.server = u"flood"_s;
            e.generation = 1;
            e.direction = Sonde::TranscriptEvent::Direction::Incoming;
            e.raw = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"n\":" +
                    QByteArray::number(total + i) + ",\"text\":\"" + QByteArray(200, 'x') + "\"}}";
            batch.append(e);
        }
        if (!store.append(batch, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        total += batchSize;
        std::printf("%lld\n", static_cast<long long>(total));
        std::fflush(stdout);
    }
}

// SPDX-License-Identifier: MIT
// sonde-bench-doctor: a full `sonde-cli doctor` run on the demo server over stdio and over
// HTTP (both revisions), beside the official conformance suite's server mode on the same HTTP
// server in the same run. Goal (issue 32): under 3 s each. Prints figures; a program, not a
// test.
#include "benchsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>

using namespace SondeBench;

namespace {

constexpr double GoalMs = 3000;

struct Timed
{
    double medianMs = 0;
    QString found; // what the run found, in a few words
};

// One program to its end; its wall time and output. The doctor's exit status 1 (an error
// finding) is a result here, not a failure of the benchmark.
QPair<double, QByteArray> runTimed(const QString &program, const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForFinished(120'000))
        fail(1, u"%1 did not finish in 120 s"_s.arg(program));
    const double ms = double(t.nsecsElapsed()) / 1e6;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() > 1)
        fail(1, u"%1 %2 exited with %3: %4"_s.arg(program, args.join(u' '))
                    .arg(p.exitCode())
                    .arg(QString::fromUtf8(p.readAllStandardError().left(400))));
    return {ms, p.readAllStandardOutput()};
}

Timed doctor(const QStringList &connection, int runs)
{
    std::vector<double> ms;
    QJsonObject summary;
    for (int i = 0; i < runs; ++i) {
        const auto [wall, out] =
            runTimed(cliPath(),
                     connection + QStringList{u"--quiet"_s, u"doctor"_s, u"--format"_s, u"json"_s});
        ms.push_back(wall);
        summary = QJsonDocument::fromJson(out).object().value("summary"_L1).toObject();
    }
    return {percentile(ms, 50), u"%1 checks ran; %2 errors, %3 warnings, %4 info"_s
                                    .arg(summary.value("checks_ran"_L1).toInt())
                                    .arg(summary.value("errors"_L1).toInt())
                                    .arg(summary.value("warnings"_L1).toInt())
                                    .arg(summary.value("infos"_L1).toInt())};
}

Timed conformance(const QString &url, int runs)
{
    const QString node22 = testsDir() + u"/conformance/node_modules/node/bin/node"_s;
    const QString suite = testsDir() + u"/conformance/node_modules/.bin/conformance"_s;
    requireNodeModule(node22);
    requireNodeModule(suite);
    std::vector<double> ms;
    QString found;
    for (int i = 0; i < runs; ++i) {
        const auto [wall, out] = runTimed(node22, {suite, u"server"_s, u"--url"_s, url});
        ms.push_back(wall);
        const QRegularExpressionMatch m =
            QRegularExpression(u"Total: (\\d+) passed, (\\d+) failed"_s)
                .match(QString::fromUtf8(out));
        found = m.hasMatch() ? u"%1 checks passed, %2 failed"_s.arg(m.captured(1), m.captured(2))
                             : u"(no total printed)"_s;
    }
    return {percentile(ms, 50), found};
}

void row(const QString &what, const Timed &t, bool goal)
{
    out(u"%1 %2 ms   %3%4"_s.arg(what.leftJustified(44))
            .arg(num(t.medianMs, 8, 0))
            .arg(goal ? verdict(t.medianMs < GoalMs).leftJustified(9) : QString(9, u' '))
            .arg(t.found));
}

} // namespace

int main(int argc, char **argv)
{
    clearProxyVariables();
    QCoreApplication app(argc, argv);
    return runGuarded("sonde-bench-doctor", [] {
        int runs = 3;
        OptionReader options(QCoreApplication::arguments());
        options.read(u"usage: sonde-bench-doctor [--runs N]"_s, [&](const QString &o) {
            if (o != "--runs"_L1)
                return false;
            runs = options.count();
            return true;
        });
        requireBuilt(cliPath(), u"sonde-cli"_s);
        out(u"sonde-bench-doctor: a full doctor run on the demo server, median of %1 runs "
            u"(goal: under 3 s each)"_s.arg(runs));
        out(u"%1 %2      %3%4"_s.arg(u"run"_s.leftJustified(44), u"wall"_s.rightJustified(8),
                                     u"goal"_s.leftJustified(9), u"found"_s));
        row(u"sonde-cli doctor, stdio"_s, doctor({u"--command"_s, demoServerPath()}, runs), true);
        Server demo(Server::Kind::Demo);
        row(u"sonde-cli doctor, HTTP (2026-07-28)"_s, doctor({u"--url"_s, demo.endpoint()}, runs),
            true);
        row(u"sonde-cli doctor, HTTP (--era initialize)"_s,
            doctor({u"--url"_s, demo.endpoint(), u"--era"_s, u"initialize"_s}, runs), true);
        row(u"conformance server mode 0.1.16, same HTTP"_s, conformance(demo.endpoint(), runs),
            false);
        out(u"(the doctor's runs include its 2.5 s bound on the demo server's slowest tool, "
            u"flood, which it cancels: the floor of a run that calls every read-only tool)"_s);
        return 0;
    });
}

// SPDX-License-Identifier: MIT
// What sonde-cli writes down holds no configured secret: the env values (which the
// starting event's command line used to carry), header values, and what the server echoes
// of them on the wire or on stderr, in the transcript and on sonde-cli's stderr, unless
// --show-secrets. Run against sonde-demo-server, over stdio and HTTP.
#include "clifixtures.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

// A GitHub token under a name the patterns know, and a credential under a name they
// cannot tell from a setting: only knowing the configuration masks the second one.
const QString GitHubToken = u"ghp_S0ndeTestT0ken0123456789abcdefABCDEF"_s;
const QString PlainNamedCredential = u"opaque-credential-4242-zq"_s;

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool everyLineIsJson(const QByteArray &jsonl)
{
    for (const QByteArray &line : jsonl.trimmed().split('\n'))
        if (!QJsonDocument::fromJson(line).isObject())
            return false;
    return true;
}

} // namespace

class TestCliSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void configuredEnvValuesStayOutOfTheTranscriptAndStderr_data()
    {
        QTest::addColumn<bool>("showSecrets");
        QTest::newRow("they are masked by default") << false;
        QTest::newRow("they are kept with --show-secrets") << true;
    }
    void configuredEnvValuesStayOutOfTheTranscriptAndStderr()
    {
        QFETCH(bool, showSecrets);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        // The server prints its env to stderr, then the value comes back in an echo: the
        // starting event, stderr lines and wire frames each get a chance to leak it.
        QStringList args{
            u"--command"_s,
            u"sh"_s,
            u"--arg"_s,
            u"-c"_s,
            u"--arg"_s,
            u"echo \"token is $GITHUB_TOKEN\" >&2; echo \"setting is $PLAIN_SETTING\" >&2; exec \"$0\""_s,
            u"--arg"_s,
            QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
            u"--env"_s,
            u"GITHUB_TOKEN="_s + GitHubToken,
            u"--env"_s,
            u"PLAIN_SETTING="_s + PlainNamedCredential,
            u"--transcript"_s,
            path};
        if (showSecrets)
            args << u"--show-secrets"_s;
        args << u"tools"_s << u"call"_s << u"echo"_s
             << QString::fromUtf8(QJsonDocument(QJsonObject{{"message"_L1, PlainNamedCredential}})
                                      .toJson(QJsonDocument::Compact));
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 0);
        const QByteArray transcript = readAll(path);
        QVERIFY(everyLineIsJson(transcript));
        QVERIFY2(transcript.contains("\"starting\""), transcript.constData());
        QVERIFY2(transcript.contains("token is "),
                 transcript.constData()); // the stderr line is there
        QCOMPARE(transcript.contains(GitHubToken.toUtf8()), showSecrets);
        QCOMPARE(transcript.contains(PlainNamedCredential.toUtf8()), showSecrets);
        QCOMPARE(transcript.contains("GITHUB_TOKEN=[REDACTED]"), !showSecrets);
        QVERIFY2(r.err.contains("token is "), r.err.constData());
        QCOMPARE(r.err.contains(GitHubToken.toUtf8()), showSecrets);
        QCOMPARE(r.err.contains(PlainNamedCredential.toUtf8()), showSecrets);
    }

    void aServerThatCannotStartIsNamedWithoutItsEnvValues()
    {
        const Run r = cli({u"--command"_s, u"/nonexistent/sonde-no-such-server"_s, u"--env"_s,
                           u"GITHUB_TOKEN="_s + GitHubToken, u"--env"_s,
                           u"PLAIN_SETTING="_s + PlainNamedCredential, u"ping"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("sonde-no-such-server"), r.err.constData());
        QVERIFY2(!r.err.contains(GitHubToken.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains(PlainNamedCredential.toUtf8()), r.err.constData());
    }

    void configuredHeaderValuesStayOutOfTheTranscript()
    {
        DemoHttpServer server;
        QVERIFY(server.start());
        const QString apiKey = u"opaque-header-credential-77"_s;
        const QString bearer = u"bearer-credential-0451-xy"_s;
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        const Run r =
            cli({u"--url"_s, server.url(), u"--header"_s, u"X-Vendor-Key: "_s + apiKey,
                 u"--header"_s, u"Authorization: Bearer "_s + bearer, u"--transcript"_s, path,
                 u"--quiet"_s, u"tools"_s, u"call"_s, u"echo"_s,
                 QString::fromUtf8(
                     QJsonDocument(QJsonObject{{"message"_L1, QString(apiKey + u' ' + bearer)}})
                         .toJson(QJsonDocument::Compact))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(apiKey.toUtf8()), r.out.constData()); // the echo did come back
        const QByteArray transcript = readAll(path);
        QVERIFY(everyLineIsJson(transcript));
        QVERIFY2(transcript.contains("\"tools/call\""), transcript.constData());
        QVERIFY2(!transcript.contains(apiKey.toUtf8()), transcript.constData());
        QVERIFY2(!transcript.contains(bearer.toUtf8()), transcript.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSecrets)
#include "tst_cli_secrets.moc"

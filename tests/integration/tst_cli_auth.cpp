// SPDX-License-Identifier: MIT
// sonde-cli against the demo server's protected endpoint (sonde-demo-server --http --auth): the
// whole OAuth flow end to end through the CLI, with the authorize URL followed headless, and
// what reached the authorization server counted on its own side (/admin/stats).
#include "clifixtures.h"

#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

class ProtectedDemo
{
public:
    ~ProtectedDemo()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    bool start(const QStringList &extra = {})
    {
        m_process.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                        QStringList{u"--http"_s, u"127.0.0.1:0"_s, u"--auth"_s, u"--state-file"_s,
                                    m_dir.filePath(u"state.json"_s)} +
                            extra);
        if (!m_process.waitForStarted(5000) || !m_process.waitForReadyRead(5000))
            return false;
        m_url = QString::fromUtf8(m_process.readLine().trimmed());
        return m_url.startsWith("http://127.0.0.1:"_L1);
    }
    QString url() const { return m_url; }
    quint16 port() const { return quint16(QUrl(m_url).port()); }
    QJsonObject admin(const QByteArray &method, const QByteArray &path)
    {
        const QByteArray response =
            rawHttp(port(), method + ' ' + path +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
                                "Connection: close\r\n\r\n");
        return QJsonDocument::fromJson(response.mid(response.indexOf("\r\n\r\n") + 4)).object();
    }
    QJsonObject stats() { return admin("GET", "/admin/stats"); }
    QByteArray state()
    {
        QFile f(m_dir.filePath(u"state.json"_s));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_url;
};

QStringList headless(const ProtectedDemo &demo, const QString &era)
{
    return {u"--url"_s, demo.url(), u"--era"_s, era, u"--auth-agent"_s, u"headless"_s};
}

} // namespace

class TestCliAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theFirstCallRunsTheFlowOnceAndIsAnswered_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("over the 2025-11-25 handshake") << u"initialize"_s;
        QTest::newRow("over the sessionless 2026-07-28 revision") << u"2026-07-28"_s;
    }
    void theFirstCallRunsTheFlowOnceAndIsAnswered()
    {
        QFETCH(QString, era);
        ProtectedDemo demo;
        QVERIFY(demo.start());
        const Run r =
            cli(headless(demo, era) + QStringList{u"--transcript"_s, u"/dev/null"_s, u"tools"_s,
                                                  u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value("result"_L1).toString(),
                 u"Echo: hi"_s);
        const QJsonObject stats = demo.stats();
        QCOMPARE(stats.value("registration_requests"_L1).toInt(), 1);
        QCOMPARE(stats.value("authorization_requests"_L1).toInt(), 1);
        QCOMPARE(stats.value("token_requests"_L1).toInt(), 1);
        QCOMPARE(stats.value("refused_401"_L1).toInt(), 1); // only the first request
        QVERIFY2(!r.err.contains("Bearer "), r.err.constData());
    }

    void aWriteThatNeedsMoreScopeStepsUpOnceAndRunsOnce()
    {
        ProtectedDemo demo;
        QVERIFY(demo.start());
        const Run r = cli(headless(demo, u"initialize"_s) +
                          QStringList{u"tools"_s, u"call"_s, u"increment-counter"_s, u"{}"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value("result"_L1).toString(),
                 u"counter = 1"_s);
        QVERIFY2(demo.state().contains("\"counter\": 1") || demo.state().contains("\"counter\":1"),
                 demo.state().constData()); // the 403 came at the door: it ran once, not twice
        const QJsonObject stats = demo.stats();
        QCOMPARE(stats.value("refused_403"_L1).toInt(), 1);
        QCOMPARE(stats.value("authorization_requests"_L1).toInt(), 2); // the step-up
        QCOMPARE(stats.value("registration_requests"_L1).toInt(), 1);  // reused
    }

    void aTokenAboutToExpireIsRefreshedWithoutANewAuthorization()
    {
        ProtectedDemo demo;
        QVERIFY(demo.start({u"--auth-token-ttl"_s, u"2"_s}));
        const QByteArray steps =
            "{\"op\":\"call\",\"tool\":\"echo\",\"args\":{\"message\":\"a\"}}\n"
            "{\"op\":\"sleep\",\"ms\":2600}\n"
            "{\"op\":\"call\",\"tool\":\"echo\",\"args\":{\"message\":\"b\"}}\n";
        const Run r = cli(headless(demo, u"initialize"_s) + QStringList{u"exec"_s, u"-"_s}, steps);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(2).value("result"_L1).toString(), u"Echo: b"_s);
        const QJsonObject stats = demo.stats();
        QCOMPARE(stats.value("authorization_requests"_L1).toInt(), 1);
        // The code grant, then at least one refresh at 80% of the 2 s lifetime; never a 401.
        QVERIFY2(stats.value("token_requests"_L1).toInt() >= 2,
                 QJsonDocument(stats).toJson().constData());
        QCOMPARE(stats.value("refused_401"_L1).toInt(), 1);
    }

    void aRevokedTokenEndsInNeedsReauthWithoutANewFlow()
    {
        ProtectedDemo demo;
        QVERIFY(demo.start());
        QProcess p;
        p.start(QString::fromUtf8(SONDE_CLI_PATH),
                headless(demo, u"initialize"_s) + QStringList{u"exec"_s, u"-"_s});
        QVERIFY(p.waitForStarted(5000));
        p.write("{\"op\":\"call\",\"tool\":\"echo\",\"args\":{\"message\":\"a\"}}\n");
        QByteArray out;
        while (!out.contains('\n') && p.waitForReadyRead(10000))
            out += p.readAllStandardOutput();
        QVERIFY2(out.contains("\"result\":\"Echo: a\""), out.constData());
        const QJsonObject revoked = demo.admin("POST", "/admin/revoke");
        QVERIFY(revoked.value("revoked_access_tokens"_L1).toInt() >= 1);
        p.write("{\"op\":\"call\",\"tool\":\"echo\",\"args\":{\"message\":\"b\"}}\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        out += p.readAllStandardOutput();
        const QList<QJsonObject> lines = jsonLines(out);
        QCOMPARE(lines.size(), 2);
        const QJsonObject second = lines.at(1);
        QVERIFY2(second.value("error"_L1).toString().contains("needs_reauth"_L1),
                 QJsonDocument(second).toJson().constData());
        QCOMPARE(second.value("http_status"_L1).toInt(), 401);
        QCOMPARE(p.exitCode(), 1);
        // The refresh was tried and refused; no new authorization behind the user's back.
        QCOMPARE(demo.stats().value("authorization_requests"_L1).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliAuth)
#include "tst_cli_auth.moc"

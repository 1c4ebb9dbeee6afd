// SPDX-License-Identifier: MIT
// The seam the next protocol revision lands in: a revision is a SessionEra subclass handed to
// the session, chosen by the era probe when the server offers its version, and asked at every
// point where a revision differs. A fake third revision here proves it is only that: the
// session, the 2025-11-25 and the 2026-07-28 eras are untouched by it.
#include "faketransport.h"
#include "session/serversession.h"
#include "session/sessionhost.h"
#include "session/sessionsnapshot.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

constexpr auto FakeVersion = "2099-01-01";

// A revision that marks what it sends and answers one method itself. A real one adds its
// ServerConfig::Era value (its name, and the setting that forces it); the fake borrows
// 2026-07-28's, so the tests tell it apart by its version and by what it does.
class FakeRevision final : public SessionEra
{
public:
    using SessionEra::SessionEra;
    std::optional<ServerConfig::Era> kind() const override
    {
        return ServerConfig::Era::Rev20260728;
    }
    bool speaks(const QString &version) const override
    {
        return version == QLatin1StringView(FakeVersion);
    }
    QStringList probedVersions() const override { return {QString::fromLatin1(FakeVersion)}; }
    QJsonObject requestParams(const QString &method, const QJsonObject &params) override
    {
        QJsonObject p = params;
        p.insert("fake/marked"_L1, method);
        return p;
    }
    bool answerLocally(quint64 ticket) override
    {
        m_host.finish(ticket, QJsonObject{{"answeredBy"_L1, u"fake-2099"_s}}, {});
        return true;
    }
    void connected() override { ++connects; }
    int connects = 0;
};

struct Fixture
{
    ManualClock clock;
    QPointer<FakeTransport> transport;
    std::unique_ptr<ServerSession> session;
    FakeRevision *fake = nullptr;

    explicit Fixture(bool withFake)
    {
        ServerConfig c;
        c.name = u"fake"_s;
        c.era = ServerConfig::Era::Auto;
        c.route = ServerConfig::Route::StreamableHttp;
        session = std::make_unique<ServerSession>(c, clock, QJsonObject{},
                                                  [this](const ServerConfig &, const Clock &) {
                                                      auto t = std::make_unique<FakeTransport>();
                                                      transport = t.get();
                                                      return t;
                                                  });
        if (withFake) {
            QList<ServerSession::EraFactory> eras = ServerSession::defaultEras();
            eras.append([this](SessionHost &host) {
                auto e = std::make_unique<FakeRevision>(host);
                fake = e.get();
                return e;
            });
            session->setEras(eras);
        }
    }
    // The server answers the probe offering `versions`.
    void start(const QStringList &versions)
    {
        session->start();
        transport->answer(transport->sent.at(0),
                          {{"supportedVersions"_L1, QJsonArray::fromStringList(versions)},
                           {"capabilities"_L1, QJsonObject{}}});
    }
    CallOutcome call(const QString &method)
    {
        QSignalSpy done(session.get(), &ServerSession::callFinished);
        CallRequest r;
        r.ticket = 7;
        r.server = u"fake"_s;
        r.method = method;
        session->call(r);
        if (done.isEmpty())
            transport->answer(transport->sent.last(),
                              QJsonObject{{"resultType"_L1, "complete"_L1}});
        return done.isEmpty() ? CallOutcome() : done.first().first().value<CallOutcome>();
    }
};

} // namespace

class TestSessionEra : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aThirdRevisionIsChosenWhenTheServerOffersIt()
    {
        Fixture f(true);
        f.start({QString::fromLatin1(FakeVersion), u"2026-07-28"_s});
        const SessionSnapshot s = f.session->snapshot();
        QCOMPARE(s.state, SessionSnapshot::State::Ready);
        QCOMPARE(s.protocolVersion, QString::fromLatin1(FakeVersion));
        QCOMPARE(f.fake->connects, 1);
        // The probe spoke the newest revision the session has: the fake one.
        QCOMPARE(f.transport->sent.at(0).value("params"_L1).toObject().value("fake/marked"_L1),
                 u"server/discover"_s);
    }

    void theChosenRevisionShapesEveryCall()
    {
        Fixture f(true);
        f.start({QString::fromLatin1(FakeVersion)});
        const CallOutcome out = f.call(u"tools/call"_s);
        QCOMPARE(out.result.toObject().value("answeredBy"_L1).toString(), u"fake-2099"_s);
        QCOMPARE(f.transport->sent.size(), 1); // answered by the era, nothing more sent
    }

    void aServerWithoutTheNewRevisionStillGets20260728()
    {
        Fixture f(true);
        f.start({u"2026-07-28"_s});
        QCOMPARE(f.session->snapshot().era, ServerConfig::Era::Rev20260728);
        QCOMPARE(f.session->snapshot().protocolVersion, u"2026-07-28"_s);
        QCOMPARE(f.fake->connects, 0);
        f.call(u"tools/list"_s);
        const QJsonObject sent = f.transport->sent.last();
        QCOMPARE(sent.value("method"_L1).toString(), u"tools/list"_s);
        QVERIFY(!sent.value("params"_L1).toObject().contains("fake/marked"_L1));
        QVERIFY(sent.value("params"_L1).toObject().contains("_meta"_L1));
    }

    void withoutTheFakeTheSameOfferFallsBackToTheHandshake()
    {
        // The control: only the fake class made the version speakable.
        Fixture f(false);
        f.start({QString::fromLatin1(FakeVersion)});
        QCOMPARE(f.transport->sent.last().value("method"_L1).toString(), u"initialize"_s);
        QCOMPARE(f.session->snapshot().era, ServerConfig::Era::Initialize);
    }
};

QTEST_GUILESS_MAIN(TestSessionEra)
#include "tst_sessionera.moc"

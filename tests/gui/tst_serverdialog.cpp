// SPDX-License-Identifier: MIT
// The server dialog: its protocol era choice (auto, legacy, modern) is named for a screen
// reader, explained in a tooltip and round-trips the ServerConfig; an edited server keeps
// what the dialog does not show.
#include "serverdialog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::ServerConfig::Era)

class TestServerDialog : public QObject
{
    Q_OBJECT

    static ServerConfig stdioServer(ServerConfig::Era era)
    {
        ServerConfig c;
        c.name = u"everything"_s;
        c.program = u"/usr/bin/env"_s;
        c.arguments = {u"node"_s, u"server.mjs"_s};
        c.era = era;
        return c;
    }

private Q_SLOTS:
    void theEraComboIsNamedAndExplained()
    {
        ServerDialog dialog;
        auto *era = dialog.findChild<QComboBox *>(u"serverEra"_s);
        QVERIFY(era);
        QCOMPARE(era->accessibleName(), u"Protocol era"_s);
        QVERIFY(era->toolTip().contains(u"server/discover"_s));
        QCOMPARE(era->count(), 3);
        QVERIFY(era->itemText(0).startsWith(u"Auto"_s));
        QVERIFY(era->itemText(1).contains(u"2025-11-25"_s));
        QVERIFY(era->itemText(2).contains(u"2026-07-28"_s));
        // A new server detects its era.
        QCOMPARE(dialog.config().era, ServerConfig::Era::Auto);
    }

    void eachEraRoundTrips_data()
    {
        QTest::addColumn<ServerConfig::Era>("era");
        QTest::addColumn<QString>("shown");
        QTest::newRow("an auto server shows Auto and stays auto")
            << ServerConfig::Era::Auto << u"Auto"_s;
        QTest::newRow("a legacy server shows Legacy and stays legacy")
            << ServerConfig::Era::Legacy << u"Legacy"_s;
        QTest::newRow("a modern server shows Modern and stays modern")
            << ServerConfig::Era::Modern << u"Modern"_s;
    }
    void eachEraRoundTrips()
    {
        QFETCH(ServerConfig::Era, era);
        QFETCH(QString, shown);
        ServerDialog dialog;
        dialog.setConfig(stdioServer(era), {});
        auto *combo = dialog.findChild<QComboBox *>(u"serverEra"_s);
        QVERIFY(combo->currentText().startsWith(shown));
        QCOMPARE(dialog.config().era, era);
        // Renamed, the era stays.
        dialog.findChild<QLineEdit *>(u"serverName"_s)->setText(u"renamed"_s);
        QCOMPARE(dialog.config().era, era);
        QCOMPARE(dialog.config().name, u"renamed"_s);
    }

    void choosingAnEraChangesIt()
    {
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::Era::Auto), {});
        auto *combo = dialog.findChild<QComboBox *>(u"serverEra"_s);
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Modern)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Modern);
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog as dir/server-dialog.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog.show();
            dialog.grab().save(dir + u"/server-dialog.png"_s);
        }
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Legacy)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Legacy);
    }

    void anEditedServerKeepsWhatTheDialogDoesNotShow()
    {
        ServerConfig c = stdioServer(ServerConfig::Era::Modern);
        c.toolReadOnlyOverrides.insert(u"delete-file"_s, false);
        c.initializeTimeoutMs = 7'000;
        c.discoverTimeoutMs = 1'500;
        c.environment.insert(u"TOKEN"_s, u"x"_s);
        ServerDialog dialog;
        dialog.setConfig(c, {});
        // The fields it shows still win: a variable removed in the dialog is gone.
        dialog.findChild<QWidget *>(u"serverEnv"_s)->setProperty("plainText", u"A=1"_s);
        const ServerConfig out = dialog.config();
        QCOMPARE(out.toolReadOnlyOverrides, c.toolReadOnlyOverrides);
        QCOMPARE(out.initializeTimeoutMs, 7'000);
        QCOMPARE(out.discoverTimeoutMs, 1'500);
        QCOMPARE(out.environment, (QMap<QString, QString>{{u"A"_s, u"1"_s}}));
        QCOMPARE(out.arguments, c.arguments);
    }
};

QTEST_MAIN(TestServerDialog)
#include "tst_serverdialog.moc"

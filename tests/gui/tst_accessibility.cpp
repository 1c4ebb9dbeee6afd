// SPDX-License-Identifier: MIT
// Every control of the real window has an accessible name: the window is built as the
// program builds it, fed the demo server, and each tab is shown in turn while the QAccessible
// tree is walked; an interactive interface (button, check box, combo box, text field, list,
// table, tab bar, ...) without a name fails the test, listed with its widget's class and
// objectName and the panel it is in.
#include "demowindow.h"
#include "window/guiserverrequesthandler.h"
#include "window/mainwindow.h"

#include <QAccessible>
#include <QJsonArray>
#include <QListView>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

bool interactive(QAccessible::Role role)
{
    static const QAccessible::Role roles[] = {
        QAccessible::PushButton,  QAccessible::CheckBox,       QAccessible::RadioButton,
        QAccessible::ComboBox,    QAccessible::EditableText,   QAccessible::SpinBox,
        QAccessible::List,        QAccessible::Tree,           QAccessible::Table,
        QAccessible::PageTabList, QAccessible::Slider,         QAccessible::MenuItem,
        QAccessible::ButtonMenu,  QAccessible::ButtonDropDown, QAccessible::ButtonDropGrid,
        QAccessible::HotkeyField, QAccessible::Dial,           QAccessible::SpinBox,
    };
    return std::find(std::begin(roles), std::end(roles), role) != std::end(roles);
}

// "QPushButton 'breakerTrip' in HealthPanel": what the failure message names.
QString describe(const QAccessibleInterface *iface)
{
    const QObject *o = iface->object();
    QString panel;
    for (const QObject *p = o ? o->parent() : nullptr; p; p = p->parent()) {
        const QString cls = QString::fromLatin1(p->metaObject()->className());
        if (cls.startsWith("Sonde::"_L1)) {
            panel = cls.mid(7);
            break;
        }
    }
    return u"%1 '%2' (%3) in %4"_s.arg(
        o ? QString::fromLatin1(o->metaObject()->className()) : u"(no object)"_s,
        o ? o->objectName() : QString(), QString::fromLatin1(qAccessibleRoleString(iface->role())),
        panel.isEmpty() ? u"the window"_s : panel);
}

void walk(QAccessibleInterface *iface, QSet<QString> *unnamed, int depth = 0)
{
    if (!iface || depth > 60)
        return;
    const QAccessible::Role role = iface->role();
    if (interactive(role) && !iface->state().invisible &&
        iface->text(QAccessible::Name).trimmed().isEmpty())
        unnamed->insert(describe(iface));
    // An item view's children are its cells, named by their data: the view itself counts.
    if (role == QAccessible::List || role == QAccessible::Table || role == QAccessible::Tree)
        return;
    for (int i = 0; i < iface->childCount(); ++i)
        walk(iface->child(i), unnamed, depth + 1);
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyControlOfTheWindowHasAnAccessibleName()
    {
        DemoWindow demo;
        MainWindow &window = demo.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(demo.toolRows() >= 19, 10000);

        QSet<QString> unnamed;
        QTabWidget *tabs = window.tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            walk(QAccessible::queryAccessibleInterface(&window), &unnamed);
        }
        // The dialogs a server's requests open are windows of their own.
        GuiServerRequestHandler handler(demo.host, nullptr, &window);
        QSignalSpy shown(&handler, &GuiServerRequestHandler::requestShown);
        const QJsonObject schema{
            {"type"_L1, "object"_L1},
            {"properties"_L1,
             QJsonObject{{"name"_L1, QJsonObject{{"type"_L1, "string"_L1}}},
                         {"agree"_L1, QJsonObject{{"type"_L1, "boolean"_L1}}},
                         {"size"_L1, QJsonObject{{"enum"_L1, QJsonArray{"s"_L1, "m"_L1}}}}}}};
        handler.handleServerRequest({u"demo"_s,
                                     1,
                                     1,
                                     u"elicitation/create"_s,
                                     {{"message"_L1, "?"_L1}, {"requestedSchema"_L1, schema}}});
        handler.handleServerRequest(
            {u"demo"_s,
             1,
             2,
             u"elicitation/create"_s,
             {{"message"_L1, "?"_L1}, {"url"_L1, "https://example.com/x"_L1}}});
        handler.handleServerRequest({u"demo"_s, 1, 3, u"sampling/createMessage"_s, {}});
        QCOMPARE(shown.count(), 3);
        for (const QList<QVariant> &args : std::as_const(shown)) {
            QWidget *dialog = args.at(1).value<QWidget *>();
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            walk(QAccessible::queryAccessibleInterface(dialog), &unnamed);
        }

        QStringList missing(unnamed.begin(), unnamed.end());
        missing.sort();
        QVERIFY2(missing.isEmpty(),
                 qPrintable(u"%1 controls without an accessible name:\n  "_s.arg(missing.size()) +
                            missing.join(u"\n  "_s)));
        for (const QList<QVariant> &args : std::as_const(shown))
            args.at(1).value<QWidget *>()->close();
    }
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"

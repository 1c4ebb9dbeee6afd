// SPDX-License-Identifier: MIT
// The one "Suggest values" widget of the Resources and Prompts panels: which argument it
// asks for, what it sends as context, and what choosing a suggestion does to the form.
#include "tools/completionfield.h"
#include "tools/schemaformwidget.h"

#include <QJsonArray>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestCompletionField : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        QWidget window;
        SchemaFormWidget *form = new SchemaFormWidget(&window);
        CompletionField *field = new CompletionField(form, u"suggest"_s, u"suggestions"_s, &window);
        Fixture()
        {
            form->setSchema({{"type"_L1, "object"_L1},
                             {"properties"_L1,
                              QJsonObject{{"city"_L1, QJsonObject{{"type"_L1, "string"_L1}}},
                                          {"street"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}}});
            form->setValue({{"city"_L1, "Par"_L1}, {"street"_L1, "Rue"_L1}});
            field->setFallbackArgument(u"city"_s);
            field->setAvailable(true);
        }
        QPushButton *button() const { return field->findChild<QPushButton *>(u"suggest"_s); }
        QListView *list() const { return field->findChild<QListView *>(u"suggestions"_s); }
    };

private Q_SLOTS:
    void theFocusedFieldIsAskedForWithTheOthersAsContext()
    {
        Fixture f;
        f.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.window));
        auto *street = f.form->findChild<QLineEdit *>(u"field:street"_s);
        QVERIFY(street);
        street->setFocus();
        QSignalSpy requested(f.field, &CompletionField::requested);
        QTest::mouseClick(f.button(), Qt::LeftButton);
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), u"street"_s);
        QCOMPARE(requested.at(0).at(1).toString(), u"Rue"_s);
        QCOMPARE(requested.at(0).at(2).toJsonObject(), (QJsonObject{{"city"_L1, "Par"_L1}}));
    }

    void withoutAFocusedFieldTheFallbackIsAskedFor()
    {
        Fixture f;
        QSignalSpy requested(f.field, &CompletionField::requested);
        QTest::mouseClick(f.button(), Qt::LeftButton);
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), u"city"_s);
        QCOMPARE(requested.at(0).at(1).toString(), u"Par"_s);
    }

    void onlyTheAnswerForTheArgumentAskedIsShownAndChoosingOneFillsIt()
    {
        Fixture f;
        QTest::mouseClick(f.button(), Qt::LeftButton); // asks for city
        f.field->showCompletion(u"street"_s, {u"Rue de Rivoli"_s});
        QCOMPARE(f.list()->model()->rowCount(), 0);
        f.field->showCompletion(u"city"_s, {u"Paris"_s, u"Parma"_s});
        QCOMPARE(f.list()->model()->rowCount(), 2);
        Q_EMIT f.list()->activated(f.list()->model()->index(1, 0));
        QCOMPARE(f.form->value().value("city"_L1).toString(), u"Parma"_s);
        QCOMPARE(f.form->value().value("street"_L1).toString(), u"Rue"_s);
        f.field->clear();
        QCOMPARE(f.list()->model()->rowCount(), 0);
    }

    void withoutCompletionsTheButtonIsDisabledAndTheListHidden()
    {
        Fixture f;
        f.window.show();
        f.field->setAvailable(false);
        QVERIFY(!f.button()->isEnabled());
        QVERIFY(f.list()->isHidden());
        QVERIFY(!f.field->isAvailable());
        f.field->setAvailable(true);
        QVERIFY(f.button()->isEnabled());
        QVERIFY(!f.list()->isHidden());
    }
};

QTEST_MAIN(TestCompletionField)
#include "tst_completionfield.moc"

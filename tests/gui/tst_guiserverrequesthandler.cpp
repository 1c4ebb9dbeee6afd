// SPDX-License-Identifier: MIT
// The dialogs a server's requests open fit what they show: every field of an elicitation
// form, with long titles and descriptions, lies inside the dialog's visible area (and inside
// the form's scroll viewport), and the sampling dialog shows all of its parts, within the
// screen.
#include "application/servers/serverviewstore.h"
#include "engine/corehost.h"
#include "window/guiserverrequesthandler.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

QJsonObject manyFields(int count)
{
    QJsonObject properties;
    QJsonArray required;
    static const char *const types[] = {"string", "integer", "boolean", "number"};
    for (int i = 0; i < count; ++i) {
        const QString key = u"field%1"_s.arg(i);
        QJsonObject p{{"type"_L1, QString::fromLatin1(types[i % 4])},
                      {"title"_L1, u"A rather long title for field number %1 of the form"_s.arg(i)},
                      {"description"_L1,
                       u"What this field is for, said at some length so that it has to wrap onto a "
                       "second line in any dialog of a reasonable width (%1)"_s.arg(i)}};
        if (i % 3 == 0)
            required.append(key);
        properties.insert(key, p);
    }
    return {{"type"_L1, "object"_L1}, {"properties"_L1, properties}, {"required"_L1, required}};
}

// Whether `w` lies wholly inside `area` (both mapped to the dialog).
bool inside(const QWidget *w, const QWidget *area, const QDialog *dialog)
{
    const QRect r(w->mapTo(dialog, QPoint(0, 0)), w->size());
    const QRect a(area->mapTo(dialog, QPoint(0, 0)), area->size());
    return a.contains(r);
}

} // namespace

class TestGuiServerRequestHandler : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<QWidget> m_parent;
    std::unique_ptr<ServerViewStore> m_views;
    std::unique_ptr<GuiServerRequestHandler> m_handler;

    QDialog *open(const QString &method, const QJsonObject &params)
    {
        QSignalSpy shown(m_handler.get(), &GuiServerRequestHandler::requestShown);
        m_handler->handleServerRequest({u"demo"_s, 1, 7, method, params});
        if (shown.count() != 1)
            return nullptr;
        auto *dialog = qobject_cast<QDialog *>(shown.first().at(1).value<QWidget *>());
        if (dialog && !QTest::qWaitForWindowExposed(dialog))
            return nullptr;
        return dialog;
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_parent = std::make_unique<QWidget>();
        m_parent->resize(1000, 700);
        m_parent->show();
        m_views = std::make_unique<ServerViewStore>();
        m_handler =
            std::make_unique<GuiServerRequestHandler>(*m_host, m_views.get(), m_parent.get());
    }

    void cleanup()
    {
        m_handler.reset();
        m_parent.reset(); // closes (and deletes) the dialogs; their answers go to the engine
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_host.reset();
    }

    void everyElicitationFieldIsInsideTheDialog_data()
    {
        QTest::addColumn<int>("fields");
        QTest::newRow("one field") << 1;
        QTest::newRow("four fields with long titles and descriptions") << 4;
        QTest::newRow("seven fields with long titles and descriptions") << 7;
    }

    void everyElicitationFieldIsInsideTheDialog()
    {
        QFETCH(int, fields);
        QDialog *dialog =
            open(u"elicitation/create"_s, {{"message"_L1, "Tell the server about yourself"_L1},
                                           {"requestedSchema"_L1, manyFields(fields)}});
        QVERIFY(dialog);
        const QRect screen = dialog->screen()->availableGeometry();
        QVERIFY2(dialog->width() >= 420, qPrintable(u"width %1"_s.arg(dialog->width())));
        QVERIFY(dialog->width() <= screen.width() && dialog->height() <= screen.height());
        auto *scroll = dialog->findChild<QScrollArea *>();
        QVERIFY(scroll);
        for (int i = 0; i < fields; ++i) {
            const QString name = u"field:field%1"_s.arg(i);
            auto *editor = dialog->findChild<QWidget *>(name);
            QVERIFY2(editor, qPrintable(name));
            QVERIFY2(inside(editor, dialog, dialog), qPrintable(name + u" is outside"_s));
            QVERIFY2(inside(editor, scroll->viewport(), dialog),
                     qPrintable(u"%1 is cut off: the dialog is %2x%3"_s.arg(name)
                                    .arg(dialog->width())
                                    .arg(dialog->height())));
            if (auto *help = dialog->findChild<QWidget *>(u"help:field%1"_s.arg(i)))
                QVERIFY2(
                    inside(help, scroll->viewport(), dialog),
                    qPrintable(u"the help line of %1 is cut off: %2,%3 %4x%5 in %6x%7"_s.arg(name)
                                   .arg(help->mapTo(scroll->viewport(), QPoint()).x())
                                   .arg(help->mapTo(scroll->viewport(), QPoint()).y())
                                   .arg(help->width())
                                   .arg(help->height())
                                   .arg(scroll->viewport()->width())
                                   .arg(scroll->viewport()->height())));
        }
        for (QPushButton *b : dialog->findChildren<QPushButton *>())
            QVERIFY2(inside(b, dialog, dialog), qPrintable(b->objectName()));
    }

    // Accept sends the defaults a user leaves (SEP-1034, what the conformance suite checks):
    // the help line under an optional field says so, instead of the tool form's "not sent
    // unless set", which the dialog contradicted.
    void anElicitationSaysItSendsTheDefaultsItSends()
    {
        const QJsonObject schema{
            {"type"_L1, "object"_L1},
            {"properties"_L1, QJsonObject{{"count"_L1, QJsonObject{{"type"_L1, "integer"_L1},
                                                                   {"default"_L1, 42}}}}}};
        QDialog *dialog = open(u"elicitation/create"_s,
                               {{"message"_L1, "How many?"_L1}, {"requestedSchema"_L1, schema}});
        QVERIFY(dialog);
        auto *help = dialog->findChild<QLabel *>(u"help:count"_s);
        QVERIFY(help);
        QVERIFY2(help->text().contains(u"42 (sent unless you change it)"_s),
                 qPrintable(help->text()));
        QVERIFY(!help->text().contains(u"not sent"_s));
    }

    void aFormTallerThanTheScreenScrollsInADialogThatFitsTheScreen()
    {
        QDialog *dialog = open(u"elicitation/create"_s, {{"message"_L1, "Many questions"_L1},
                                                         {"requestedSchema"_L1, manyFields(60)}});
        QVERIFY(dialog);
        const QRect screen = dialog->screen()->availableGeometry();
        QVERIFY(dialog->frameGeometry().height() <= screen.height());
        QVERIFY(dialog->findChild<QScrollArea *>()->verticalScrollBar()->maximum() > 0);
    }

    void theSamplingDialogShowsAllOfItsParts()
    {
        QDialog *dialog = open(u"sampling/createMessage"_s,
                               {{"messages"_L1, QJsonArray{QJsonObject{{"role"_L1, "user"_L1}}}}});
        QVERIFY(dialog);
        const QRect screen = dialog->screen()->availableGeometry();
        QVERIFY(dialog->width() <= screen.width() && dialog->height() <= screen.height());
        for (const QString &name :
             {u"samplingMessages"_s, u"samplingReply"_s, u"samplingModel"_s, u"samplingSend"_s})
            QVERIFY2(inside(dialog->findChild<QWidget *>(name), dialog, dialog), qPrintable(name));
        // The model name's field says what it is, beside it.
        auto *label = dialog->findChild<QLabel *>(u"samplingModelLabel"_s);
        QVERIFY(label);
        QCOMPARE(label->buddy(), dialog->findChild<QWidget *>(u"samplingModel"_s));
        QVERIFY(label->isVisible());
    }
};

QTEST_MAIN(TestGuiServerRequestHandler)
#include "tst_guiserverrequesthandler.moc"

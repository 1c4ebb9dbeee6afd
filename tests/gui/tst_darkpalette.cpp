// SPDX-License-Identifier: MIT
// The dark palette: applied and taken back at run time, and in it a disabled button looks
// disabled (its text is far closer to the button's colour than an enabled one's).
#include "window/darkpalette.h"
#include "window/hintbar.h"

#include <QApplication>
#include <QPushButton>
#include <QStyleOptionButton>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {
double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
// WCAG's contrast ratio: 1 (none) to 21 (black on white).
double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
// The colours the style paints a button's text and face with, as it decides them.
std::pair<QColor, QColor> rendered(const QPushButton &b)
{
    QStyleOptionButton option;
    option.initFrom(&b);
    const QPalette::ColorGroup group =
        option.state & QStyle::State_Enabled ? QPalette::Active : QPalette::Disabled;
    return {option.palette.color(group, QPalette::ButtonText),
            option.palette.color(group, QPalette::Button)};
}
} // namespace

class TestDarkPalette : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { DarkPalette::restore(); }

    void aDisabledButtonLooksDisabled_data()
    {
        QTest::addColumn<QPalette::ColorRole>("text");
        QTest::newRow("its label") << QPalette::ButtonText;
        QTest::newRow("text in a field") << QPalette::Text;
        QTest::newRow("a label's text") << QPalette::WindowText;
    }
    void aDisabledButtonLooksDisabled()
    {
        QFETCH(QPalette::ColorRole, text);
        DarkPalette::apply();
        QPushButton enabled(u"Call"_s);
        QPushButton disabled(u"Call"_s);
        disabled.setEnabled(false);
        const auto [onText, onFace] = rendered(enabled);
        const auto [offText, offFace] = rendered(disabled);
        QVERIFY2(contrast(onText, onFace) >= 4.5, qPrintable(onText.name()));
        const QPalette p = QApplication::palette();
        const double on =
            contrast(p.color(QPalette::Active, text), p.color(QPalette::Active, QPalette::Button));
        const double off = contrast(p.color(QPalette::Disabled, text),
                                    p.color(QPalette::Disabled, QPalette::Button));
        QVERIFY2(on >= 2 * off, qPrintable(u"enabled %1, disabled %2"_s.arg(on).arg(off)));
        QVERIFY2(contrast(onText, onFace) >= 2 * contrast(offText, offFace),
                 qPrintable(u"button: enabled %1, disabled %2"_s.arg(contrast(onText, onFace))
                                .arg(contrast(offText, offFace))));
        // Still readable: dimmer, not gone.
        QVERIFY(contrast(offText, offFace) >= 1.5);
    }

    // Links and the App badge drawn in the link colour read on the dark window and fields.
    void aLinkReadsOnTheDarkBackgrounds_data()
    {
        QTest::addColumn<QPalette::ColorRole>("background");
        QTest::newRow("on the window (the hint bar's Show me)") << QPalette::Window;
        QTest::newRow("on a list (a tool's App badge)") << QPalette::Base;
    }
    void aLinkReadsOnTheDarkBackgrounds()
    {
        QFETCH(QPalette::ColorRole, background);
        DarkPalette::apply();
        const QPalette p = QApplication::palette();
        for (const auto role : {QPalette::Link, QPalette::LinkVisited}) {
            const double c = contrast(p.color(role), p.color(background));
            QVERIFY2(c >= 4.5, qPrintable(u"%1 on %2: %3"_s
                                              .arg(p.color(role).name(), p.color(background).name())
                                              .arg(c)));
        }
    }

    // The first-run hint's "Show me" was set before the palette turned dark: it is drawn in
    // the dark palette's link colour, not the light one's.
    void aHintsLinkTakesTheDarkLinkColour()
    {
        HintBar bar;
        bar.showText(u"New here? <a href=\"demo\">Show me the way, in a long link</a>"_s);
        bar.resize(600, 40);
        DarkPalette::apply();
        QCoreApplication::sendPostedEvents(); // the palette reaches the widgets by events
        const QColor link = QApplication::palette().color(QPalette::Link);
        const QImage shot = bar.grab().toImage();
        int linkPixels = 0;
        for (int y = 0; y < shot.height(); ++y)
            for (int x = 0; x < shot.width(); ++x) {
                const QColor c = shot.pixelColor(x, y);
                linkPixels += std::abs(c.red() - link.red()) + std::abs(c.green() - link.green()) +
                                  std::abs(c.blue() - link.blue()) <
                              40;
            }
        QVERIFY2(linkPixels > 20, qPrintable(QString::number(linkPixels)));
    }

    void theSystemPaletteComesBack()
    {
        const QPalette system = QApplication::palette();
        const QString style = QApplication::style()->name();
        QVERIFY(!DarkPalette::isApplied());
        DarkPalette::apply();
        QVERIFY(DarkPalette::isApplied());
        QVERIFY(QApplication::palette().color(QPalette::Window) != system.color(QPalette::Window));
        DarkPalette::restore();
        QVERIFY(!DarkPalette::isApplied());
        QCOMPARE(QApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
        QCOMPARE(QApplication::palette().color(QPalette::Disabled, QPalette::ButtonText),
                 system.color(QPalette::Disabled, QPalette::ButtonText));
        QCOMPARE(QApplication::style()->name(), style);
    }
};

QTEST_MAIN(TestDarkPalette)
#include "tst_darkpalette.moc"

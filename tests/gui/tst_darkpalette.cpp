// SPDX-License-Identifier: MIT
// In the dark palette, disabled controls look disabled: their text is plainly dimmer than
// an enabled control's on the same surface (and still readable), in the palette and on the
// screen, as the Fusion style paints a button.
#include "darkpalette.h"

#include <QApplication>
#include <QImage>
#include <QPushButton>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// WCAG's relative luminance and contrast ratio.
double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The brightest pixel: on a dark button, that is its text.
double brightest(const QImage &image)
{
    double most = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            most = std::max(most, luminance(image.pixelColor(x, y)));
    return most;
}

} // namespace

class TestDarkPalette : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aDisabledButtonIsPaintedDimmer()
    {
        std::unique_ptr<QStyle> fusion(QStyleFactory::create(u"Fusion"_s));
        QVERIFY(fusion);
        QWidget window;
        window.setStyle(fusion.get());
        window.setPalette(DarkPalette::palette());
        auto *enabled = new QPushButton(u"Call"_s, &window);
        auto *disabled = new QPushButton(u"Call"_s, &window);
        for (QPushButton *b : {enabled, disabled}) {
            b->setStyle(fusion.get());
            b->resize(120, 32);
        }
        disabled->move(0, 40);
        disabled->setEnabled(false);
        window.resize(200, 100);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const double on = brightest(enabled->grab().toImage());
        const double off = brightest(disabled->grab().toImage());
        QVERIFY2(off <= on * 0.5,
                 qPrintable(u"disabled text luminance %1, enabled %2"_s.arg(off).arg(on)));
    }

    void disabledTextIsDimmerThanEnabledText_data()
    {
        QTest::addColumn<int>("foreground");
        QTest::addColumn<int>("background");
        QTest::newRow("a button's text on the button")
            << int(QPalette::ButtonText) << int(QPalette::Button);
        QTest::newRow("a field's text on its base") << int(QPalette::Text) << int(QPalette::Base);
        QTest::newRow("a label's text on the window")
            << int(QPalette::WindowText) << int(QPalette::Window);
    }

    void disabledTextIsDimmerThanEnabledText()
    {
        QFETCH(int, foreground);
        QFETCH(int, background);
        const QPalette p = DarkPalette::palette();
        const auto role = [](int r) { return QPalette::ColorRole(r); };
        const double enabled = contrast(p.color(QPalette::Active, role(foreground)),
                                        p.color(QPalette::Active, role(background)));
        const double disabled = contrast(p.color(QPalette::Disabled, role(foreground)),
                                         p.color(QPalette::Disabled, role(background)));
        QVERIFY2(enabled >= 7.0, qPrintable(u"enabled contrast %1"_s.arg(enabled)));
        QVERIFY2(
            disabled <= enabled / 2.0,
            qPrintable(u"disabled contrast %1 against enabled %2"_s.arg(disabled).arg(enabled)));
        QVERIFY2(disabled >= 2.5, qPrintable(u"disabled contrast %1: unreadable"_s.arg(disabled)));
        QVERIFY(DarkPalette::isDark(p));
    }
};

QTEST_MAIN(TestDarkPalette)
#include "tst_darkpalette.moc"

// SPDX-License-Identifier: MIT
#include "application/apps/apphostcontext.h"

#include "util/version.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace Sonde::AppHostContext {

namespace {

QString css(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

QString family(QFontDatabase::SystemFont which, const QString &fallback)
{
    return u"\"%1\", %2"_s.arg(QFontDatabase::systemFont(which).family(), fallback);
}

} // namespace

QJsonObject themeOf(const QPalette &p)
{
    const bool dark =
        p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
    // apps.mdx's variable names, each from the palette role a Qt widget would paint it with.
    const QJsonObject variables{
        {"--color-background-primary"_L1, css(p.color(QPalette::Base))},
        {"--color-background-secondary"_L1, css(p.color(QPalette::Window))},
        {"--color-background-tertiary"_L1, css(p.color(QPalette::AlternateBase))},
        {"--color-background-inverse"_L1, css(p.color(QPalette::Text))},
        {"--color-background-info"_L1, css(p.color(QPalette::Highlight))},
        {"--color-text-primary"_L1, css(p.color(QPalette::Text))},
        {"--color-text-secondary"_L1, css(p.color(QPalette::PlaceholderText))},
        {"--color-text-tertiary"_L1, css(p.color(QPalette::Disabled, QPalette::Text))},
        {"--color-text-inverse"_L1, css(p.color(QPalette::Base))},
        {"--color-text-info"_L1, css(p.color(QPalette::Link))},
        {"--color-border-primary"_L1, css(p.color(QPalette::Mid))},
        {"--color-border-secondary"_L1, css(p.color(QPalette::Midlight))},
        {"--color-ring-primary"_L1, css(p.color(QPalette::Highlight))},
        {"--font-sans"_L1, family(QFontDatabase::GeneralFont, u"sans-serif"_s)},
        {"--font-mono"_L1, family(QFontDatabase::FixedFont, u"monospace"_s)},
        {"--border-radius-sm"_L1, "3px"_L1},
        {"--border-radius-md"_L1, "4px"_L1},
        {"--border-radius-lg"_L1, "6px"_L1},
    };
    return {{"theme"_L1, dark ? "dark"_L1 : "light"_L1},
            {"styles"_L1, QJsonObject{{"variables"_L1, variables}}}};
}

QJsonObject build(const QPalette &palette, QSize container)
{
    QJsonObject c = themeOf(palette);
    c.insert("displayMode"_L1, "inline"_L1);
    c.insert("containerDimensions"_L1,
             QJsonObject{{"width"_L1, container.width()}, {"maxHeight"_L1, container.height()}});
    c.insert("locale"_L1, QLocale().bcp47Name());
    c.insert("timeZone"_L1, QString::fromUtf8(QTimeZone::systemTimeZoneId()));
    c.insert("userAgent"_L1, u"Sonde/%1"_s.arg(QLatin1StringView(SONDE_VERSION)));
    c.insert("platform"_L1, "desktop"_L1);
    c.insert("deviceCapabilities"_L1, QJsonObject{{"touch"_L1, false}, {"hover"_L1, true}});
    return c;
}

QJsonObject hostInfo()
{
    return {{"name"_L1, "Sonde"_L1}, {"version"_L1, QLatin1StringView(SONDE_VERSION)}};
}

} // namespace Sonde::AppHostContext

// SPDX-License-Identifier: MIT
#include "window/jsonview.h"

#include "sonde-ui-config.h"
#include "window/textdisplay.h"

#include <QFontDatabase>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSyntaxHighlighter>

#if SONDE_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// Keys, strings, numbers and literals in fixed mid-tone colours, not from the palette: they
// are chosen to stay readable on a light and on a dark background alike.
class BuiltinJsonHighlighter : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString &text) override
    {
        static const QRegularExpression string(u"\"(?:[^\"\\\\]|\\\\.)*\"(\\s*:)?"_s);
        static const QRegularExpression number(u"-?\\b\\d+(\\.\\d+)?([eE][+-]?\\d+)?\\b"_s);
        static const QRegularExpression literal(u"\\b(true|false|null)\\b"_s);
        QTextCharFormat key, str, num, lit;
        key.setForeground(QColor(0x4e, 0x9a, 0xd6));
        key.setFontWeight(QFont::DemiBold);
        str.setForeground(QColor(0x4c, 0xaf, 0x50));
        num.setForeground(QColor(0xe0, 0x8a, 0x2c));
        lit.setForeground(QColor(0xb0, 0x6a, 0xd0));
        for (auto it = number.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), num);
        }
        for (auto it = literal.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), lit);
        }
        for (auto it = string.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()),
                      m.hasCaptured(1) ? key : str);
        }
    }
};
} // namespace

#if SONDE_HAVE_KSYNTAXHIGHLIGHTING
// Loading the definitions costs 10-15 ms: one repository for every view (GUI thread only).
static KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository shared;
    return shared;
}
#endif

JsonView::JsonView(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
#if SONDE_HAVE_KSYNTAXHIGHLIGHTING
    auto *h = new KSyntaxHighlighting::SyntaxHighlighter(document());
    h->setDefinition(repository().definitionForName(u"JSON"_s));
    h->setTheme(repository().themeForPalette(palette()));
#else
    new BuiltinJsonHighlighter(document());
#endif
}

void JsonView::setJson(const QByteArray &json, const QString &whereTheRest, qsizetype maxChars)
{
    // Reformatting needs the whole document parsed and written again: worth it only while
    // most of it can be shown (a 50 MB frame would cost a second and 200 MB to show 256 KiB).
    static constexpr qsizetype MaxReformatBytes = 4 * TextDisplay::MaxShownChars;
    if (json.size() > MaxReformatBytes) {
        TextDisplay::showUtf8(this, json, whereTheRest, maxChars);
        return;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    TextDisplay::show(this,
                      QString::fromUtf8(doc.isNull() ? json : doc.toJson(QJsonDocument::Indented)),
                      whereTheRest, maxChars);
}

} // namespace Sonde

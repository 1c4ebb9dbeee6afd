// SPDX-License-Identifier: MIT
#include "window/textdisplay.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPlainTextEdit>

using namespace Qt::StringLiterals;

namespace Sonde::TextDisplay {

static bool hasLongLine(QStringView text)
{
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype nl = text.indexOf(u'\n', start);
        if (nl < 0)
            nl = text.size();
        if (nl - start > MaxWrappedLine)
            return true;
        start = nl + 1;
    }
    return false;
}

static QString omissionNote(qsizetype omitted, const QString &unit, const QString &whereTheRest,
                            qsizetype maxChars)
{
    QString note = QCoreApplication::translate(
                       "TextDisplay", "… %1 more %2 not shown (the first %3 characters are)")
                       .arg(QLocale().toString(omitted), unit, QLocale().toString(maxChars));
    if (!whereTheRest.isEmpty())
        note += QCoreApplication::translate("TextDisplay", "; the rest is %1").arg(whereTheRest);
    return u"\n\n"_s + note;
}

Fitted fit(const QString &text, const QString &whereTheRest, qsizetype maxChars)
{
    Fitted f;
    if (text.size() <= maxChars) {
        f.text = text;
    } else {
        f.omitted = text.size() - maxChars;
        f.text = text.left(maxChars) +
                 omissionNote(f.omitted, QCoreApplication::translate("TextDisplay", "characters"),
                              whereTheRest, maxChars);
    }
    f.longLines = hasLongLine(f.text);
    return f;
}

void show(QPlainTextEdit *view, const QString &text, const QString &whereTheRest,
          qsizetype maxChars)
{
    const Fitted f = fit(text, whereTheRest, maxChars);
    view->setLineWrapMode(f.longLines ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    view->setPlainText(f.text);
}

void showUtf8(QPlainTextEdit *view, const QByteArray &bytes, const QString &whereTheRest,
              qsizetype maxChars)
{
    qsizetype omitted = 0;
    QString text = fromUtf8(bytes, maxChars, &omitted);
    if (omitted > 0)
        text += omissionNote(omitted, QCoreApplication::translate("TextDisplay", "bytes"),
                             whereTheRest, maxChars);
    view->setLineWrapMode(hasLongLine(text) ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    view->setPlainText(text);
}

QString logLine(const QString &line)
{
    if (line.size() <= MaxLogLine)
        return line;
    return line.left(MaxLogLine) +
           QCoreApplication::translate("TextDisplay", " … (%1 more characters)")
               .arg(QLocale().toString(line.size() - MaxLogLine));
}

QString fromUtf8(const QByteArray &bytes, qsizetype maxChars, qsizetype *omittedBytes)
{
    // At most 4 bytes a character: decode a prefix that surely holds maxChars, no more.
    qsizetype take = qMin(bytes.size(), maxChars * 4);
    // Do not split a UTF-8 sequence: back up over continuation bytes.
    while (take < bytes.size() && take > 0 && (uchar(bytes.at(take)) & 0xC0) == 0x80)
        --take;
    QString s = QString::fromUtf8(bytes.constData(), take);
    qsizetype omitted = bytes.size() - take;
    if (s.size() > maxChars) {
        omitted += s.mid(maxChars).toUtf8().size();
        s.truncate(maxChars);
    }
    if (omittedBytes)
        *omittedBytes = omitted;
    return s;
}

} // namespace Sonde::TextDisplay

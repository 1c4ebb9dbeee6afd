// SPDX-License-Identifier: MIT
#include "window/aboutdialog.h"

#include "protocol/mcp.h"
#include "protocol/rev20260728.h"
#include "sonde-ui-config.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QSysInfo>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QLabel *selectable(const QString &text, const QString &name, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setObjectName(name);
    label->setTextFormat(Qt::PlainText);
    // Not wrapped: a path or a version list reads best on one line, and unwrapped labels
    // give the dialog its exact height.
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString withTilde(const QString &path)
{
    const QString home = QDir::homePath();
    if (home.isEmpty() || home == u"/"_s)
        return path;
    if (path == home)
        return u"~"_s;
    return path.startsWith(home + u'/') ? u"~"_s + path.mid(home.size()) : path;
}

QString osLine()
{
    return u"%1 (%2 %3, %4), Qt platform %5"_s.arg(
        QSysInfo::prettyProductName(), QSysInfo::kernelType(), QSysInfo::kernelVersion(),
        QSysInfo::currentCpuArchitecture(), QGuiApplication::platformName());
}

} // namespace

QStringList AboutDialog::versionLines()
{
    const QString highlighter =
        SONDE_HAVE_KSYNTAXHIGHLIGHTING
            ? tr("KSyntaxHighlighting %1").arg(QLatin1StringView(SONDE_KSYNTAXHIGHLIGHTING_VERSION))
            : tr("built-in JSON highlighter (built without KSyntaxHighlighting)");
    return {u"Sonde %1"_s.arg(QLatin1StringView(SONDE_VERSION)),
            tr("Qt %1 (built with Qt %2)")
                .arg(QLatin1StringView(qVersion()), QLatin1StringView(QT_VERSION_STR)),
            highlighter};
}

QStringList AboutDialog::protocolRevisions()
{
    return Rev20260728::supportedProtocolVersions() + Mcp::supportedProtocolVersions();
}

QString AboutDialog::historyText(const Paths &paths)
{
    return paths.history.isEmpty() ? tr("none recorded in this run") : paths.history;
}

QString AboutDialog::logsText()
{
    return tr("no log file: messages go to standard error (the terminal, or the systemd\n"
              "journal when started from a desktop menu); QT_LOGGING_RULES=\"sonde.*=true\"\n"
              "adds the developer logging");
}

QString AboutDialog::bugReport(const Paths &paths)
{
    QStringList lines = versionLines();
    lines << tr("OS: %1").arg(osLine())
          << tr("Protocol revisions: %1").arg(protocolRevisions().join(u", "_s))
          << tr("Settings: %1").arg(withTilde(paths.settings))
          << tr("History: %1").arg(withTilde(historyText(paths)))
          << tr("Logs: %1").arg(QString(logsText()).replace(u'\n', u' '));
    return lines.join(u'\n') + u'\n';
}

AboutDialog::AboutDialog(const Paths &paths, QWidget *parent) : QDialog(parent)
{
    setObjectName(u"aboutDialog"_s);
    setWindowTitle(tr("About Sonde"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    auto *title = new QLabel(tr("<b>Sonde</b>, an inspector for MCP servers"), this);
    title->setAccessibleName(tr("About Sonde"));
    layout->addWidget(title);
    auto *versions = selectable(versionLines().join(u'\n'), u"aboutVersions"_s, this);
    versions->setAccessibleName(tr("Versions"));
    layout->addWidget(versions);

    auto *facts = new QFormLayout;
    facts->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const QString homepage = QString::fromLatin1(SONDE_HOMEPAGE);
    auto *link = new QLabel(
        u"<a href=\"%1\">%2</a>"_s.arg(homepage.toHtmlEscaped(), homepage.toHtmlEscaped()), this);
    link->setObjectName(u"aboutHomepage"_s);
    link->setOpenExternalLinks(true);
    link->setTextInteractionFlags(Qt::TextBrowserInteraction);
    facts->addRow(
        tr("Licence:"),
        selectable(tr("%1 (the LICENSE file of the sources)").arg(QLatin1StringView(SONDE_LICENSE)),
                   u"aboutLicence"_s, this));
    facts->addRow(tr("Homepage:"), link);
    facts->addRow(tr("Protocol revisions:"),
                  selectable(protocolRevisions().join(u", "_s), u"aboutRevisions"_s, this));
    facts->addRow(tr("Settings:"), selectable(paths.settings, u"aboutSettings"_s, this));
    facts->addRow(tr("History:"), selectable(historyText(paths), u"aboutHistory"_s, this));
    facts->addRow(tr("Logs:"), selectable(logsText(), u"aboutLogs"_s, this));
    layout->addLayout(facts);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    auto *copy = buttons->addButton(tr("Copy for a bug report"), QDialogButtonBox::ActionRole);
    copy->setObjectName(u"aboutCopyReport"_s);
    copy->setToolTip(tr("Copy the versions, the system, the protocol revisions and the paths as "
                        "plain text (no secrets; the home folder written ~)"));
    const QString report = bugReport(paths);
    connect(copy, &QPushButton::clicked, this,
            [report] { QGuiApplication::clipboard()->setText(report); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "aboutdialog.h"

#include "sonde-ui-config.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

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

AboutDialog::AboutDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(u"aboutDialog"_s);
    setWindowTitle(tr("About Sonde"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    auto *title = new QLabel(tr("<b>Sonde</b>, an inspector for MCP servers"), this);
    title->setAccessibleName(tr("About Sonde"));
    layout->addWidget(title);
    auto *versions = new QLabel(versionLines().join(u'\n'), this);
    versions->setObjectName(u"aboutVersions"_s);
    versions->setAccessibleName(tr("Versions"));
    versions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(versions);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace Sonde

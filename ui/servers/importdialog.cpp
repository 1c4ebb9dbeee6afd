// SPDX-License-Identifier: MIT
#include "servers/importdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

ImportDialog::ImportDialog(const QMap<QString, ServerConfig> &servers, QWidget *parent)
    : QDialog(parent), m_servers(servers)
{
    setWindowTitle(tr("Import servers"));
    setObjectName(u"importDialog"_s);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(
        tr("Nothing runs until you connect. Check each command before you add it:"), this));
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        auto *box = new QCheckBox(it.key(), this);
        box->setChecked(true);
        box->setAccessibleName(tr("Import %1").arg(it.key()));
        box->setToolTip(tr("Add %1 to the workspace").arg(it.key()));
        auto *command = new QLabel(it.value().displayCommand(), this);
        command->setTextInteractionFlags(Qt::TextSelectableByMouse);
        command->setWordWrap(true);
        command->setAccessibleName(tr("Command of %1").arg(it.key()));
        command->setStyleSheet(u"font-family: monospace; margin-left: 24px"_s);
        layout->addWidget(box);
        layout->addWidget(command);
        m_checks.append({it.key(), box});
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Add the ticked servers"));
    buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Cancel the import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QList<ServerConfig> ImportDialog::chosen() const
{
    QList<ServerConfig> out;
    for (const auto &[name, box] : m_checks)
        if (box->isChecked())
            out.append(m_servers.value(name));
    return out;
}

QList<ConfigInput> ImportDialog::inputsNeeded(const QString &path)
{
    QList<ConfigInput> needed;
    ServerConfigFile::Options options;
    options.inputProvider = [&needed](const ConfigInput &input) -> std::optional<QString> {
        const bool seen = std::any_of(needed.cbegin(), needed.cend(),
                                      [&](const ConfigInput &i) { return i.id == input.id; });
        if (!seen)
            needed.append(input);
        // A stand-in, so the reading goes on and finds the inputs after this one too (an
        // entry stops at its first unresolved placeholder). Nothing read here is kept.
        return QString();
    };
    ServerConfigFile::load(path, options);
    return needed;
}

std::optional<QMap<QString, ServerConfig>>
ImportDialog::readFile(const QString &path, const QHash<QString, QString> &inputs,
                       const std::function<void(const QString &)> &status)
{
    ServerConfigFile::Options options;
    options.inputProvider = [&inputs](const ConfigInput &input) -> std::optional<QString> {
        if (const auto it = inputs.constFind(input.id); it != inputs.constEnd())
            return *it;
        return std::nullopt;
    };
    const ServerConfigFile::Result r = ServerConfigFile::load(path, options);
    // Entries whose placeholders could not be resolved are not offered: starting them would
    // hand a literal "${...}" to a process or a server.
    if (!r.unresolved.isEmpty()) {
        QStringList why;
        for (const Error &e : r.unresolved)
            why.append(e.message());
        status(tr("Not imported: %1").arg(why.join(u"; "_s)));
    }
    if (r.error.isError()) {
        status(r.error.message());
        return std::nullopt;
    }
    return r.servers;
}

} // namespace Sonde

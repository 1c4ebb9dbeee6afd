// SPDX-License-Identifier: MIT
#include "servers/wrapconfigdialog.h"

#include "config/configwrapper.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
enum Column
{
    Name,
    State,
    Target
};
} // namespace

WrapConfigDialog::WrapConfigDialog(QString sondeCli, QWidget *parent)
    : QDialog(parent), m_sondeCli(std::move(sondeCli))
{
    setObjectName(u"wrapConfigDialog"_s);
    setWindowTitle(tr("Wrap in a client config"));
    auto *outer = new QVBoxLayout(this);
    auto *intro =
        new QLabel(tr("Put sonde-cli proxy between a client (Claude Desktop, Claude Code, "
                      "Cursor, VS Code) and one of its servers: the client's real "
                      "session then shows here as a row, with live faults and a verdict "
                      "on how the client recovers. Only that entry of the file changes; "
                      "a backup is kept, and Unwrap puts the entry back byte for byte."),
                   this);
    intro->setWordWrap(true);
    outer->addWidget(intro);
    auto *fileRow = new QHBoxLayout;
    m_file = new QLineEdit(this);
    m_file->setObjectName(u"wrapConfigFile"_s);
    m_file->setAccessibleName(tr("Client config file"));
    m_file->setPlaceholderText(
        tr("~/.claude.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json…"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    outer->addLayout(fileRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Client config"), m_file->text(), tr("MCP configs (*.json);;All files (*)"));
        if (!path.isEmpty())
            load(path);
    });
    connect(m_file, &QLineEdit::returnPressed, this, [this] { load(m_file->text()); });

    m_entries = new QTreeWidget(this);
    m_entries->setObjectName(u"wrapConfigEntries"_s);
    m_entries->setAccessibleName(tr("The file's servers"));
    m_entries->setRootIsDecorated(false);
    m_entries->setHeaderLabels({tr("Server"), tr("Runs"), tr("Command or URL")});
    m_entries->header()->setStretchLastSection(true);
    outer->addWidget(m_entries, 1);
    connect(m_entries, &QTreeWidget::currentItemChanged, this, &WrapConfigDialog::updateButtons);

    auto *actions = new QHBoxLayout;
    actions->addWidget(new QLabel(tr("Proxy port (HTTP servers)"), this));
    m_port = new QSpinBox(this);
    m_port->setRange(1024, 65535);
    m_port->setValue(8931);
    m_port->setAccessibleName(tr("Proxy port for an HTTP server"));
    actions->addWidget(m_port);
    actions->addStretch(1);
    m_wrap = new QPushButton(tr("Wrap"), this);
    m_wrap->setObjectName(u"wrapButton"_s);
    m_unwrap = new QPushButton(tr("Unwrap"), this);
    m_unwrap->setObjectName(u"unwrapButton"_s);
    m_start = new QPushButton(tr("Start its proxy"), this);
    m_start->setObjectName(u"startProxyButton"_s);
    m_start->setToolTip(tr("An HTTP server's client connects to a proxy on this machine: start it "
                           "(it keeps running after Sonde quits)"));
    actions->addWidget(m_wrap);
    actions->addWidget(m_unwrap);
    actions->addWidget(m_start);
    connect(m_start, &QPushButton::clicked, this, [this] { startProxySelected(); });
    outer->addLayout(actions);
    connect(m_wrap, &QPushButton::clicked, this, [this] { wrapSelected(); });
    connect(m_unwrap, &QPushButton::clicked, this, [this] { unwrapSelected(); });

    m_message = new QLabel(this);
    m_message->setObjectName(u"wrapConfigMessage"_s);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_message);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    outer->addWidget(buttons);
    resize(720, 420);
    updateButtons();
}

QString WrapConfigDialog::message() const
{
    return m_message->text();
}

void WrapConfigDialog::say(const QString &text)
{
    m_message->setText(text);
}

void WrapConfigDialog::load(const QString &path)
{
    m_path = path;
    m_file->setText(path);
    m_entries->clear();
    QFile file(path);
    QFile sidecar(ConfigWrapper::sidecarPath(path));
    if (!file.open(QIODevice::ReadOnly)) {
        say(tr("%1: %2").arg(path, file.errorString()));
        updateButtons();
        return;
    }
    const QByteArray kept = sidecar.open(QIODevice::ReadOnly) ? sidecar.readAll() : QByteArray();
    QString error;
    const auto entries = ConfigWrapper::entries(file.read(8 * 1024 * 1024 + 1), &error, kept);
    if (!entries) {
        say(tr("%1: %2").arg(path, error));
        updateButtons();
        return;
    }
    for (const ConfigWrapper::Entry &e : *entries) {
        auto *item = new QTreeWidgetItem(
            m_entries, {e.name, e.wrapped ? tr("through sonde-cli proxy") : tr("directly"),
                        e.http ? e.url : e.command});
        item->setData(Name, Qt::UserRole, e.wrapped);
        item->setData(Target, Qt::UserRole, e.http);
        item->setData(State, Qt::UserRole, e.target);
        item->setData(Target, Qt::UserRole + 1, e.url);
    }
    m_entries->resizeColumnToContents(Name);
    m_entries->resizeColumnToContents(State);
    if (m_entries->topLevelItemCount() > 0)
        m_entries->setCurrentItem(m_entries->topLevelItem(0));
    say(tr("%n server(s) in %1", nullptr, int(entries->size())).arg(path));
    updateButtons();
}

void WrapConfigDialog::updateButtons()
{
    const QTreeWidgetItem *item = m_entries->currentItem();
    const bool wrapped = item && item->data(Name, Qt::UserRole).toBool();
    m_wrap->setEnabled(item && !wrapped);
    m_unwrap->setEnabled(item && wrapped);
    m_port->setEnabled(item && item->data(Target, Qt::UserRole).toBool());
    m_start->setEnabled(wrapped && !item->data(State, Qt::UserRole).toString().isEmpty());
}

qint64 WrapConfigDialog::startProxySelected()
{
    const QTreeWidgetItem *item = m_entries->currentItem();
    const QString target = item ? item->data(State, Qt::UserRole).toString() : QString();
    if (target.isEmpty())
        return 0;
    const QUrl local(item->data(Target, Qt::UserRole + 1).toString());
    QProcess proxy;
    proxy.setProgram(m_sondeCli);
    proxy.setArguments(
        {u"proxy"_s, u"--listen"_s, u"127.0.0.1:%1"_s.arg(local.port()), u"--target"_s, target});
    proxy.setStandardInputFile(QProcess::nullDevice());
    proxy.setStandardOutputFile(QProcess::nullDevice());
    proxy.setStandardErrorFile(QProcess::nullDevice());
    qint64 pid = 0;
    if (!proxy.startDetached(&pid)) {
        say(tr("Could not start %1: %2").arg(m_sondeCli, proxy.errorString()));
        return 0;
    }
    say(tr("Started sonde-cli proxy (pid %1) on 127.0.0.1:%2 for %3: its client's session shows "
           "here once the client connects.")
            .arg(pid)
            .arg(local.port())
            .arg(target));
    return pid;
}

void WrapConfigDialog::wrapSelected(bool confirm)
{
    const QTreeWidgetItem *item = m_entries->currentItem();
    if (!item)
        return;
    const QString name = item->text(Name);
    ConfigWrapper::Options options;
    options.sondeCli = m_sondeCli;
    options.httpPort = quint16(m_port->value());
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return say(tr("%1: %2").arg(m_path, file.errorString()));
    const ConfigWrapper::Edit preview = ConfigWrapper::wrap(file.readAll(), name, options);
    if (!preview.error.isEmpty())
        return say(preview.error);
    if (confirm && QMessageBox::question(
                       this, tr("Wrap %1").arg(name),
                       tr("Rewrite the entry \"%1\" in %2?\n\nNow:\n%3\n\nThen:\n%4\n\nA backup "
                          "goes to %5.")
                           .arg(name, m_path, QString::fromUtf8(preview.original.simplified()),
                                QString::fromUtf8(preview.replaced.simplified()),
                                ConfigWrapper::backupPath(m_path))) != QMessageBox::Yes)
        return;
    ConfigWrapper::Edit done;
    if (const QString error = ConfigWrapper::wrapFile(m_path, name, options, &done);
        !error.isEmpty())
        return say(error);
    const QString text =
        done.target.isEmpty()
            ? tr("Wrapped \"%1\": restart the client (or reload its servers) and its session shows "
                 "here as a row.")
                  .arg(name)
            : tr("Wrapped \"%1\": the client now connects to 127.0.0.1:%2. Start its proxy (the "
                 "button), or by hand: %3 proxy --listen 127.0.0.1:%2 --target %4")
                  .arg(name)
                  .arg(options.httpPort)
                  .arg(m_sondeCli, done.target);
    load(m_path);
    // The entry just wrapped stays selected, so Start its proxy is one click away.
    for (int i = 0; i < m_entries->topLevelItemCount(); ++i)
        if (m_entries->topLevelItem(i)->text(Name) == name)
            m_entries->setCurrentItem(m_entries->topLevelItem(i));
    say(text);
    Q_EMIT changed(m_path, text);
}

void WrapConfigDialog::unwrapSelected(bool confirm)
{
    const QTreeWidgetItem *item = m_entries->currentItem();
    if (!item)
        return;
    const QString name = item->text(Name);
    if (confirm &&
        QMessageBox::question(this, tr("Unwrap %1").arg(name),
                              tr("Put the entry \"%1\" in %2 back as it was?").arg(name, m_path)) !=
            QMessageBox::Yes)
        return;
    if (const QString error = ConfigWrapper::unwrapFile(m_path, name); !error.isEmpty())
        return say(error);
    const QString text = tr("Unwrapped \"%1\": the client runs it directly again.").arg(name);
    load(m_path);
    say(text);
    Q_EMIT changed(m_path, text);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "servers/serverdialog.h"

#include "application/workspace/workspacesecrets.h"
#include "servers/namevalueeditor.h"
#include "window/formlabels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

static QStringList lines(const QPlainTextEdit *edit)
{
    QStringList out;
    for (const QString &l : edit->toPlainText().split(u'\n'))
        if (!l.trimmed().isEmpty())
            out.append(l);
    return out;
}

ServerDialog::ServerDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Server"));
    setObjectName(u"serverDialog"_s);
    // Wide enough for a header's name, value and switch in a row, and for the sentence on
    // where secrets are kept to take two or three lines.
    setMinimumWidth(600);
    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_route = new QComboBox(this);
    m_route->addItem(tr("stdio (a program)"), int(ServerConfig::Route::Stdio));
    m_route->addItem(tr("Streamable HTTP (falls back to SSE)"),
                     int(ServerConfig::Route::StreamableHttp));
    m_route->addItem(tr("Legacy HTTP+SSE"), int(ServerConfig::Route::LegacySse));
    m_era = new QComboBox(this);
    m_era->addItem(tr("Auto — detect with server/discover"), int(ServerConfig::Era::Auto));
    m_era->addItem(tr("Initialize — 2025-11-25 and earlier, a handshake and sessions"),
                   int(ServerConfig::Era::Initialize));
    m_era->addItem(tr("2026-07-28 — sessionless"), int(ServerConfig::Era::Rev20260728));
    m_era->setAccessibleName(tr("Protocol era"));
    m_era->setToolTip(
        tr("Which protocol revision to speak. Auto asks server/discover first and uses "
           "2026-07-28 when the server offers it, else the initialize handshake of 2025-11-25."));
    m_program = new QLineEdit(this);
    m_arguments = new QPlainTextEdit(this);
    m_arguments->setPlaceholderText(tr("one argument per line (no shell: quotes are literal)"));
    // A variable's name rarely says whether it holds a secret (DATABASE_URL with its
    // password): each is one unless the user says otherwise.
    m_environment = new NameValueEditor(
        {tr("variable"), tr("NAME"), true, std::function<bool(const QString &)>()}, this);
    m_cwd = new QLineEdit(this);
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(u"http://127.0.0.1:3001/mcp"_s);
    m_headers = new NameValueEditor(
        {tr("header"), tr("Name"), false,
         [](const QString &name) { return WorkspaceSecrets::isSecretHeader({}, name.toUtf8()); }},
        this);
    m_headers->setToolTip(tr("Authorization and headers whose name says token, key, secret or "
                             "cookie are always secret; mark any other one Secret."));
    m_storage = new QLabel(this);
    m_storage->setWordWrap(true);
    m_storage->setTextFormat(Qt::PlainText);
    m_useFile = new QPushButton(tr("Keep secrets in an encrypted file…"), this);
    connect(m_useFile, &QPushButton::clicked, this, &ServerDialog::encryptedFileRequested);
    auto *storage = new QWidget(this);
    auto *storageRows = new QVBoxLayout(storage);
    storageRows->setContentsMargins(0, 0, 0, 0);
    storageRows->addWidget(m_storage);
    storageRows->addWidget(m_useFile, 0, Qt::AlignLeft);
    m_timeout = new QDoubleSpinBox(this);
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(60);
    m_timeout->setSuffix(u" s"_s);
    m_threshold = new QSpinBox(this);
    m_threshold->setRange(1, 100);
    m_threshold->setValue(3);
    m_cooldown = new QDoubleSpinBox(this);
    m_cooldown->setRange(0, 3600);
    m_cooldown->setValue(60);
    m_cooldown->setSuffix(u" s"_s);
    m_ping = new QDoubleSpinBox(this);
    m_ping->setRange(0, 3600);
    m_ping->setSuffix(u" s"_s);
    m_ping->setSpecialValueText(tr("off"));
    m_roots = new QPlainTextEdit(this);
    m_roots->setPlaceholderText(tr("roots offered to the server: a path or URI per line"));
    m_recordPayloads = new QCheckBox(tr("Record payloads in the history"), this);
    m_recordPayloads->setChecked(true);
    m_recordPayloads->setAccessibleName(m_recordPayloads->text());
    m_recordPayloads->setToolTip(
        tr("Unchecked, the history keeps this server's methods, ids and sizes, not what its "
           "requests and answers carried"));
    m_mcpApps = new QCheckBox(tr("Render MCP Apps (tell the server Sonde shows them)"), this);
    m_mcpApps->setChecked(true);
    m_mcpApps->setAccessibleName(m_mcpApps->text());
    m_mcpApps->setToolTip(tr("Unchecked, Sonde does not declare the io.modelcontextprotocol/ui "
                             "extension to this server: you see its answers as a client "
                             "without Apps does"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Transport"), m_route);
    form->addRow(tr("Protocol era"), m_era);
    form->addRow(tr("Program"), m_program);
    form->addRow(tr("Arguments"), m_arguments);
    form->addRow(tr("Environment"), m_environment);
    form->addRow(tr("Working directory"), m_cwd);
    form->addRow(tr("URL"), m_url);
    form->addRow(tr("Headers"), m_headers);
    form->addRow(tr("Secrets"), storage);
    form->addRow(tr("Request timeout"), m_timeout);
    form->addRow(tr("Breaker threshold"), m_threshold);
    form->addRow(tr("Breaker cooldown"), m_cooldown);
    form->addRow(tr("Keepalive ping"), m_ping);
    form->addRow(tr("Roots"), m_roots);
    form->addRow(tr("History"), m_recordPayloads);
    form->addRow(tr("MCP Apps"), m_mcpApps);
    FormLabels::nameFields(form);
    const std::pair<QWidget *, const char *> names[] = {{m_name, "serverName"},
                                                        {m_route, "serverRoute"},
                                                        {m_era, "serverEra"},
                                                        {m_program, "serverProgram"},
                                                        {m_arguments, "serverArgs"},
                                                        {m_environment, "serverEnv"},
                                                        {m_cwd, "serverCwd"},
                                                        {m_url, "serverUrl"},
                                                        {m_headers, "serverHeaders"},
                                                        {m_storage, "serverSecretStorage"},
                                                        {m_useFile, "serverSecretsFile"},
                                                        {m_timeout, "serverTimeout"},
                                                        {m_threshold, "serverBreakerThreshold"},
                                                        {m_cooldown, "serverBreakerCooldown"},
                                                        {m_ping, "serverPing"},
                                                        {m_roots, "serverRoots"},
                                                        {m_recordPayloads, "serverRecordPayloads"},
                                                        {m_mcpApps, "serverMcpApps"}};
    for (const auto &[w, name] : names)
        w->setObjectName(QLatin1StringView(name));
    m_stdioRows = {m_program, m_arguments, m_environment, m_cwd};
    m_httpRows = {m_url, m_headers};
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Save the server"));
    buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ServerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(m_route, &QComboBox::currentIndexChanged, this, &ServerDialog::updateVisibility);
    updateVisibility();
    setSecretStorage({});
}

void ServerDialog::setSecretStorage(const SecretStorage &storage)
{
    m_storage->setText(storage.sentence());
    m_storage->setAccessibleName(storage.sentence());
    m_useFile->setVisible(storage.offersFile());
    FormLabels::fitHeight(this);
}

void ServerDialog::updateVisibility()
{
    const bool stdio = m_route->currentData().toInt() == int(ServerConfig::Route::Stdio);
    auto *form = qobject_cast<QFormLayout *>(layout()->itemAt(0)->layout());
    for (QWidget *w : std::as_const(m_stdioRows))
        form->setRowVisible(w, stdio);
    for (QWidget *w : std::as_const(m_httpRows))
        form->setRowVisible(w, !stdio);
}

void ServerDialog::setConfig(const ServerConfig &c, const QStringList &roots)
{
    m_base = c;
    m_name->setText(c.name);
    m_route->setCurrentIndex(m_route->findData(int(c.route)));
    m_era->setCurrentIndex(m_era->findData(int(c.era)));
    m_program->setText(c.program);
    m_arguments->setPlainText(c.arguments.join(u'\n'));
    // A reference stands for a value the secret store could not give back: never shown.
    QList<NameValueEditor::Entry> env;
    for (auto it = c.environment.begin(); it != c.environment.end(); ++it) {
        const bool missing = !WorkspaceSecrets::keyOf(it.value()).isEmpty();
        env.append({it.key(), missing ? QString() : it.value(),
                    WorkspaceSecrets::isSecretEnvironment(c, it.key()), missing});
    }
    m_environment->setEntries(env);
    m_cwd->setText(c.workingDirectory);
    m_url->setText(c.url.toString());
    QList<NameValueEditor::Entry> headers;
    for (const auto &[k, v] : c.headers) {
        const bool missing = !WorkspaceSecrets::keyOf(v).isEmpty();
        headers.append({QString::fromUtf8(k), missing ? QString() : QString::fromUtf8(v),
                        WorkspaceSecrets::isSecretHeader(c, k), missing});
    }
    m_headers->setEntries(headers);
    m_timeout->setValue(c.requestTimeoutMs / 1000.0);
    m_threshold->setValue(c.breakerThreshold);
    m_cooldown->setValue(c.breakerCooldownMs / 1000.0);
    m_ping->setValue(c.pingIntervalMs / 1000.0);
    m_roots->setPlainText(roots.join(u'\n'));
    m_recordPayloads->setChecked(c.recordPayloads);
    m_mcpApps->setChecked(c.mcpApps);
}

ServerConfig ServerDialog::config() const
{
    ServerConfig c = m_base;
    c.name = m_name->text().trimmed();
    c.route = ServerConfig::Route(m_route->currentData().toInt());
    c.era = ServerConfig::Era(m_era->currentData().toInt());
    c.program = m_program->text().trimmed();
    c.arguments = lines(m_arguments);
    // A secret left empty where the store had none keeps its reference: it may be there
    // next time (a keyring unlocked later), and the server stays unconnected meanwhile.
    c.environment.clear();
    c.plainEnvironment.clear();
    for (const NameValueEditor::Entry &e : m_environment->entries()) {
        c.environment.insert(e.name, e.missing ? m_base.environment.value(e.name) : e.value);
        if (!e.secret)
            c.plainEnvironment.append(e.name);
    }
    c.workingDirectory = m_cwd->text().trimmed();
    c.url = QUrl(m_url->text().trimmed(), QUrl::StrictMode);
    const auto before = [this](const QByteArray &name) {
        for (const auto &[k, v] : m_base.headers)
            if (k == name)
                return v;
        return QByteArray();
    };
    c.headers.clear();
    c.secretHeaders.clear();
    for (const NameValueEditor::Entry &e : m_headers->entries()) {
        const QByteArray name = e.name.toUtf8();
        c.headers.append({name, e.missing ? before(name) : e.value.trimmed().toUtf8()});
        if (e.secret && !WorkspaceSecrets::isSecretHeader({}, name))
            c.secretHeaders.append(name);
    }
    c.requestTimeoutMs = int(m_timeout->value() * 1000);
    c.breakerThreshold = m_threshold->value();
    c.breakerCooldownMs = int(m_cooldown->value() * 1000);
    c.pingIntervalMs = int(m_ping->value() * 1000);
    c.recordPayloads = m_recordPayloads->isChecked();
    c.mcpApps = m_mcpApps->isChecked();
    return c;
}

QStringList ServerDialog::roots() const
{
    return lines(m_roots);
}

void ServerDialog::accept()
{
    const ServerConfig c = config();
    QString problem;
    if (c.name.isEmpty())
        problem = tr("Give the server a name.");
    else if (c.route == ServerConfig::Route::Stdio && c.program.isEmpty())
        problem = tr("A stdio server needs a program.");
    else if (c.route != ServerConfig::Route::Stdio &&
             (!c.url.isValid() || (c.url.scheme() != "http"_L1 && c.url.scheme() != "https"_L1)))
        problem = tr("An HTTP server needs an http or https URL.");
    if (!problem.isEmpty()) {
        auto *box =
            new QMessageBox(QMessageBox::Warning, tr("Server"), problem, QMessageBox::Ok, this);
        box->setObjectName(u"serverProblem"_s);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    QDialog::accept();
}

} // namespace Sonde

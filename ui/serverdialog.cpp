// SPDX-License-Identifier: MIT
#include "serverdialog.h"

#include "formlabels.h"

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
    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_route = new QComboBox(this);
    m_route->addItem(tr("stdio (a program)"), int(ServerConfig::Route::Stdio));
    m_route->addItem(tr("Streamable HTTP (falls back to SSE)"),
                     int(ServerConfig::Route::StreamableHttp));
    m_route->addItem(tr("Legacy HTTP+SSE"), int(ServerConfig::Route::LegacySse));
    m_era = new QComboBox(this);
    m_era->addItem(tr("Auto — detect with server/discover"), int(ServerConfig::Era::Auto));
    m_era->addItem(tr("Legacy — 2025-11-25, initialize and sessions"),
                   int(ServerConfig::Era::Legacy));
    m_era->addItem(tr("Modern — 2026-07-28, sessionless"), int(ServerConfig::Era::Modern));
    m_era->setAccessibleName(tr("Protocol era"));
    m_era->setToolTip(
        tr("Which protocol revision to speak. Auto asks server/discover first and uses "
           "2026-07-28 when the server offers it, else the initialize handshake of 2025-11-25."));
    m_program = new QLineEdit(this);
    m_arguments = new QPlainTextEdit(this);
    m_arguments->setPlaceholderText(tr("one argument per line (no shell: quotes are literal)"));
    m_environment = new QPlainTextEdit(this);
    m_environment->setPlaceholderText(tr("NAME=value, one per line"));
    m_cwd = new QLineEdit(this);
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(u"http://127.0.0.1:3001/mcp"_s);
    m_headers = new QPlainTextEdit(this);
    m_headers->setPlaceholderText(tr("Name: value, one per line"));
    m_secretHeaders = new QLineEdit(this);
    m_secretHeaders->setPlaceholderText(tr("header names, comma-separated"));
    m_secretHeaders->setToolTip(
        tr("Kept in the system keyring, not in Sonde's settings. Authorization and headers "
           "whose name says token, key, secret or cookie always are."));
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
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Transport"), m_route);
    form->addRow(tr("Protocol era"), m_era);
    form->addRow(tr("Program"), m_program);
    form->addRow(tr("Arguments"), m_arguments);
    form->addRow(tr("Environment"), m_environment);
    form->addRow(tr("Working directory"), m_cwd);
    form->addRow(tr("URL"), m_url);
    form->addRow(tr("Headers"), m_headers);
    form->addRow(tr("Secret headers"), m_secretHeaders);
    form->addRow(tr("Request timeout"), m_timeout);
    form->addRow(tr("Breaker threshold"), m_threshold);
    form->addRow(tr("Breaker cooldown"), m_cooldown);
    form->addRow(tr("Keepalive ping"), m_ping);
    form->addRow(tr("Roots"), m_roots);
    form->addRow(tr("History"), m_recordPayloads);
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
                                                        {m_secretHeaders, "serverSecretHeaders"},
                                                        {m_timeout, "serverTimeout"},
                                                        {m_threshold, "serverBreakerThreshold"},
                                                        {m_cooldown, "serverBreakerCooldown"},
                                                        {m_ping, "serverPing"},
                                                        {m_roots, "serverRoots"},
                                                        {m_recordPayloads, "serverRecordPayloads"}};
    for (const auto &[w, name] : names)
        w->setObjectName(QLatin1StringView(name));
    m_stdioRows = {m_program, m_arguments, m_environment, m_cwd};
    m_httpRows = {m_url, m_headers, m_secretHeaders};
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
    QStringList env;
    for (auto it = c.environment.begin(); it != c.environment.end(); ++it)
        env.append(it.key() + u'=' + it.value());
    m_environment->setPlainText(env.join(u'\n'));
    m_cwd->setText(c.workingDirectory);
    m_url->setText(c.url.toString());
    QStringList headers;
    for (const auto &[k, v] : c.headers)
        headers.append(QString::fromUtf8(k) + u": "_s + QString::fromUtf8(v));
    m_headers->setPlainText(headers.join(u'\n'));
    QStringList marked;
    for (const QByteArray &name : c.secretHeaders)
        marked.append(QString::fromUtf8(name));
    m_secretHeaders->setText(marked.join(u", "_s));
    m_timeout->setValue(c.requestTimeoutMs / 1000.0);
    m_threshold->setValue(c.breakerThreshold);
    m_cooldown->setValue(c.breakerCooldownMs / 1000.0);
    m_ping->setValue(c.pingIntervalMs / 1000.0);
    m_roots->setPlainText(roots.join(u'\n'));
    m_recordPayloads->setChecked(c.recordPayloads);
}

ServerConfig ServerDialog::config() const
{
    ServerConfig c = m_base;
    c.name = m_name->text().trimmed();
    c.route = ServerConfig::Route(m_route->currentData().toInt());
    c.era = ServerConfig::Era(m_era->currentData().toInt());
    c.program = m_program->text().trimmed();
    c.arguments = lines(m_arguments);
    c.environment.clear();
    for (const QString &l : lines(m_environment)) {
        const qsizetype eq = l.indexOf(u'=');
        if (eq > 0)
            c.environment.insert(l.left(eq).trimmed(), l.mid(eq + 1));
    }
    c.workingDirectory = m_cwd->text().trimmed();
    c.url = QUrl(m_url->text().trimmed(), QUrl::StrictMode);
    c.headers.clear();
    for (const QString &l : lines(m_headers)) {
        const qsizetype colon = l.indexOf(u':');
        if (colon > 0)
            c.headers.append(
                {l.left(colon).trimmed().toUtf8(), l.mid(colon + 1).trimmed().toUtf8()});
    }
    c.secretHeaders.clear();
    for (const QString &name : m_secretHeaders->text().split(u',', Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            c.secretHeaders.append(name.trimmed().toUtf8());
    c.requestTimeoutMs = int(m_timeout->value() * 1000);
    c.breakerThreshold = m_threshold->value();
    c.breakerCooldownMs = int(m_cooldown->value() * 1000);
    c.pingIntervalMs = int(m_ping->value() * 1000);
    c.recordPayloads = m_recordPayloads->isChecked();
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

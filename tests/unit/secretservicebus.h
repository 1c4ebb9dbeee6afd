// SPDX-License-Identifier: MIT
#pragma once
// A private D-Bus session bus for the keyring tests, with (optionally) gnome-keyring's
// Secret Service on it, in a temporary home: the user's own keyring is never touched. What
// it needs is Debian's dbus-daemon and gnome-keyring packages; when they are missing the
// test fails saying so (a keyring test that skips proves nothing).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class SecretServiceBus
{
public:
    ~SecretServiceBus()
    {
        for (QProcess *p : {&m_keyring, &m_bus}) {
            if (p->state() != QProcess::NotRunning) {
                p->kill();
                p->waitForFinished(3000);
            }
        }
    }

    QString home() const { return m_dir.path(); }

    // Starts the bus; `activatable` names a program D-Bus starts for org.freedesktop.secrets
    // on first use (empty: nothing is activatable). Sets DBUS_SESSION_BUS_ADDRESS for this
    // process, before anything in it asks for the bus.
    QString startBus(const QString &activatable = {})
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty())
            return QStringLiteral("dbus-daemon is missing: install the Debian package "
                                  "dbus-daemon (./dev.sh installs it)");
        QDir(m_dir.path()).mkpath(QStringLiteral("services"));
        QDir(m_dir.path()).mkpath(QStringLiteral("runtime"));
        QFile::setPermissions(m_dir.filePath(QStringLiteral("runtime")),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                  QFileDevice::ExeOwner);
        if (!activatable.isEmpty()) {
            QFile service(
                m_dir.filePath(QStringLiteral("services/org.freedesktop.secrets.service")));
            if (!service.open(QIODevice::WriteOnly))
                return QStringLiteral("cannot write the service file");
            service.write("[D-BUS Service]\nName=org.freedesktop.secrets\nExec=" +
                          activatable.toUtf8() + "\n");
        }
        QFile config(m_dir.filePath(QStringLiteral("bus.conf")));
        if (!config.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write the bus configuration");
        config.write("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
                     "1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                     "<busconfig><type>session</type><listen>unix:dir=" +
                     QFile::encodeName(m_dir.path()) + "</listen><servicedir>" +
                     QFile::encodeName(m_dir.filePath(QStringLiteral("services"))) +
                     "</servicedir><policy context=\"default\"><allow send_destination=\"*\" "
                     "eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/>"
                     "</policy></busconfig>\n");
        config.close();
        m_bus.start(QStringLiteral("dbus-daemon"),
                    {QStringLiteral("--config-file=") + config.fileName(),
                     QStringLiteral("--nofork"), QStringLiteral("--print-address=1")});
        if (!m_bus.waitForStarted(5000))
            return QStringLiteral("dbus-daemon did not start: ") + m_bus.errorString();
        if (!QTest::qWaitFor([this] { return m_bus.canReadLine(); }, 5000))
            return QStringLiteral("dbus-daemon printed no address");
        m_address = QString::fromUtf8(m_bus.readLine().trimmed());
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_dir.filePath(QStringLiteral("runtime"))));
        qunsetenv("XDG_CURRENT_DESKTOP"); // qtkeychain: the Secret Service, not KWallet
        return {};
    }

    // gnome-keyring's Secret Service on the bus, its login keyring created and unlocked with
    // a test password, in the temporary home.
    QString startKeyring()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon")).isEmpty())
            return QStringLiteral("gnome-keyring-daemon is missing: install the Debian package "
                                  "gnome-keyring (./dev.sh installs it)");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_keyring.setProcessEnvironment(env);
        m_keyring.start(QStringLiteral("gnome-keyring-daemon"),
                        {QStringLiteral("--foreground"), QStringLiteral("--unlock"),
                         QStringLiteral("--components=secrets")});
        if (!m_keyring.waitForStarted(5000))
            return QStringLiteral("gnome-keyring-daemon did not start: ") + m_keyring.errorString();
        m_keyring.write("sonde-test-keyring"); // the login keyring's password, for --unlock
        m_keyring.closeWriteChannel();
        return {};
    }

private:
    QTemporaryDir m_dir;
    QProcess m_bus;
    QProcess m_keyring;
    QString m_address;
};

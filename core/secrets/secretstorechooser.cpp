// SPDX-License-Identifier: MIT
#include "secretstorechooser.h"

#include "keyringmodule.h"
#include "secrets/encryptedfilesecretstore.h"
#include "secrets/memorysecretstore.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// Never written: a read of it answers "not found" from a keyring that works, without asking
// the user to unlock anything (only found items are unlocked).
const QString KeyringProbeKey = u"sonde-keyring-probe"_s;

QString memoryOnly(const QString &why)
{
    return u"%1: secrets (tokens, secret headers) are kept in memory only and forgotten when "
           u"Sonde quits. To keep them, use an encrypted secrets file."_s.arg(why);
}
} // namespace

SecretStoreChooser::SecretStoreChooser(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    if (!m_options.clock) {
        m_ownClock = std::make_unique<SteadyClock>();
        m_options.clock = m_ownClock.get();
    }
}

SecretStoreChooser::~SecretStoreChooser() = default;

bool SecretStoreChooser::sessionBusReachable()
{
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return true;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtime.isEmpty() && QFileInfo::exists(QDir(runtime).filePath(u"bus"_s));
}

void SecretStoreChooser::choose()
{
    if (!m_options.encryptedFile.isEmpty()) {
        // Told to use the file: posted, so chosen() never comes inside choose().
        QTimer::singleShot(0, this, [this] { finish(Choice::Kind::EncryptedFile, {}); });
        return;
    }
    if (!sessionBusReachable()) {
        QTimer::singleShot(0, this, [this] {
            finish(Choice::Kind::Memory, u"No keyring: there is no D-Bus session bus "
                                         u"(DBUS_SESSION_BUS_ADDRESS is unset)"_s);
        });
        return;
    }
    QString moduleError;
    m_probeStore = KeyringModule::create(m_options.service, &moduleError);
    if (!m_probeStore) {
        QTimer::singleShot(0, this, [this, moduleError] {
            finish(Choice::Kind::Memory, u"No keyring: "_s + moduleError);
        });
        return;
    }
    m_timer = m_options.clock->createTimer(this);
    connect(m_timer, &ClockTimer::timeout, this, [this] {
        finish(Choice::Kind::Memory,
               u"The keyring did not answer within %1 s"_s.arg(m_options.probeTimeoutMs / 1000.0));
    });
    m_timer->start(m_options.probeTimeoutMs);
    // A read of a key never written: found or not found, the keyring answered. A late answer
    // (after the bound) is dropped by finish(); one after this object is gone, by the guard.
    m_probeStore->read(KeyringProbeKey, [this, guard = QPointer<SecretStoreChooser>(this)](
                                            std::optional<QByteArray>, QString error) {
        if (!guard)
            return;
        if (error.isEmpty())
            finish(Choice::Kind::Keyring, {});
        else
            finish(Choice::Kind::Memory, u"No keyring answered (%1)"_s.arg(error));
    });
}

void SecretStoreChooser::finish(Choice::Kind kind, const QString &reason)
{
    if (m_done)
        return;
    m_done = true;
    if (m_timer)
        m_timer->stop();
    Choice choice;
    choice.kind = kind;
    choice.reason = reason;
    choice.notice = reason.isEmpty() ? QString() : memoryOnly(reason);
    choice.service = m_options.service;
    if (kind == Choice::Kind::EncryptedFile) {
        choice.encryptedFile = m_options.encryptedFile;
        choice.passphrase = m_options.passphrase;
    }
    Q_EMIT chosen(choice);
}

std::unique_ptr<SecretStore> SecretStoreChooser::create(const Choice &choice)
{
    switch (choice.kind) {
    case Choice::Kind::Keyring:
        if (std::unique_ptr<SecretStore> store = KeyringModule::create(choice.service, nullptr))
            return store;
        break; // the module loaded for the probe; it cannot have gone since
    case Choice::Kind::EncryptedFile:
        return std::make_unique<EncryptedFileSecretStore>(choice.encryptedFile, choice.passphrase);
    case Choice::Kind::Memory:
        break;
    }
    return std::make_unique<MemorySecretStore>();
}

} // namespace Sonde

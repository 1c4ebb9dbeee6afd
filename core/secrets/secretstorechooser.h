// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <memory>

namespace Sonde {

class Clock;
class ClockTimer;
class SecretStore;

// Decides once, at start, where the front end's secrets live, and says why:
// - the encrypted file, when the user opted into one (no keyring is asked then);
// - the system keyring, when a probe (a read of a key that is never written) answers within
//   a bound, found or not found;
// - otherwise memory only, with ONE notice for the front end to show: no D-Bus session bus,
//   no Secret Service or KWallet, or a keyring that did not answer in time (a locked-up
//   daemon, an SSH session). It never waits longer than the bound and never fails: a
//   missing keyring costs persistence, not the program (unlike Inspector #1918).
// The choice is a value; create() makes a store of it on any thread (the engine's factory
// runs on the worker thread). Thread: the one that calls choose(); emits chosen() once.
class SecretStoreChooser : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString encryptedFile; // non-empty: the user's opt-in
        QByteArray passphrase; // for the encrypted file
        int probeTimeoutMs = 3000;
        QString service = QStringLiteral("sonde");
        const Clock *clock = nullptr; // the steady clock when null
    };

    struct Choice
    {
        enum class Kind
        {
            Keyring,
            Memory,
            EncryptedFile,
        };
        Kind kind = Kind::Memory;
        QString notice; // empty unless the front end must tell the user something
        QString reason; // the notice's first part: why no keyring is used
        QString encryptedFile;
        QByteArray passphrase;
        QString service;
    };

    explicit SecretStoreChooser(Options options, QObject *parent = nullptr);
    ~SecretStoreChooser() override;

    // Starts the decision; chosen() follows (from the event loop, also for the file).
    void choose();
    // A new store of the chosen kind (the window's and the engine's are separate objects).
    static std::unique_ptr<SecretStore> create(const Choice &choice);
    // Whether a D-Bus session bus is there to ask at all: the address in the environment,
    // or the per-user socket systemd and dbus-user-session put in XDG_RUNTIME_DIR.
    static bool sessionBusReachable();

Q_SIGNALS:
    void chosen(const Sonde::SecretStoreChooser::Choice &choice);

private:
    void finish(Choice::Kind kind, const QString &reason);

    Options m_options;
    std::unique_ptr<Clock> m_ownClock;
    ClockTimer *m_timer = nullptr;
    std::unique_ptr<SecretStore> m_probeStore; // the keyring, asked once
    bool m_done = false;
};

} // namespace Sonde

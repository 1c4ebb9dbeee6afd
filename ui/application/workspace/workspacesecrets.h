// SPDX-License-Identifier: MIT
#pragma once

#include "config/workspace.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>

namespace Sonde {

class SecretStore;

// The workspace's secret values, kept in a SecretStore instead of the settings file: secret
// headers and the environment values of stdio servers. A header is secret when it is
// Authorization, when its name says token, key, secret or cookie, or when the user marked it
// (ServerConfig::secretHeaders); an environment value is secret unless the user marked it
// plain (ServerConfig::plainEnvironment), since a name alone does not tell (GITHUB_TOKEN
// does, DATABASE_URL with its password does not). The settings keep in a value's place a
// reference, "sonde-secret:header/<server>/<name>" or "sonde-secret:env/<server>/<NAME>",
// that names the store's key and no value. keep() writes what changed to the store and
// removes what is gone; resolve() reads the references back, and moves a plaintext value an
// older Sonde left in the settings into the store (the caller then saves the settings
// without it). Thread: the GUI thread (the store's answers come on its event loop); owned by
// the window.
class WorkspaceSecrets : public QObject
{
    Q_OBJECT
public:
    explicit WorkspaceSecrets(SecretStore *store, QObject *parent = nullptr);
    // Another store from now on: what keep() is given next is written to it whole.
    void setStore(SecretStore *store);
    SecretStore *store() const { return m_store; }

    static bool isSecretHeader(const ServerConfig &config, const QByteArray &name);
    static bool isSecretEnvironment(const ServerConfig &config, const QString &name);
    static QByteArray referenceFor(const QString &server, const QByteArray &header);
    static QString environmentReferenceFor(const QString &server, const QString &name);
    // The store key a reference names; empty when the value is no reference.
    static QString keyOf(const QByteArray &value);
    static QString keyOf(const QString &value) { return keyOf(value.toUtf8()); }
    // The workspace as the settings get it: every secret value is its reference.
    static Workspace withReferences(const Workspace &workspace);
    // The secret values of `config` still standing as references (the store could not give
    // them): "header Authorization", "variable GITHUB_TOKEN". Empty when it has them all.
    static QStringList missing(const ServerConfig &config);

    // Writes every secret value that is new or changed since the last keep() or resolve(),
    // and removes the store's values of headers, variables and servers that are gone.
    void keep(const Workspace &workspace);

    struct Loaded
    {
        Workspace workspace;    // references replaced by their values where they were read
        QStringList errors;     // in words, each naming its server and value
        QStringList unresolved; // servers holding a reference that could not be read
        bool migrated = false;  // plaintext secrets moved into the store: save the settings
    };
    // Reads every reference and migrates every plaintext secret. `done` runs once: inside
    // the call when there is nothing to read or write, else after the store's last answer.
    void resolve(const Workspace &workspace, std::function<void(const Loaded &)> done);

Q_SIGNALS:
    // A write or remove that keep() started failed (the value lives on in memory only).
    void storeFailed(const QString &message);

private:
    SecretStore *m_store;
    QHash<QString, QByteArray> m_kept; // key -> the value the store holds, as far as we know
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "workspacesecrets.h"

#include "util/secretstore.h"

#include <QPointer>
#include <QSet>

#include <memory>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
constexpr QByteArrayView ReferencePrefix = "sonde-secret:";

QString keyFor(const QString &server, const QByteArray &header)
{
    return u"header/%1/%2"_s.arg(server, QString::fromUtf8(header));
}
} // namespace

WorkspaceSecrets::WorkspaceSecrets(SecretStore *store, QObject *parent)
    : QObject(parent), m_store(store)
{
}

void WorkspaceSecrets::setStore(SecretStore *store)
{
    m_store = store;
    m_kept.clear(); // what another store holds says nothing of this one
}

bool WorkspaceSecrets::isSecretHeader(const ServerConfig &config, const QByteArray &name)
{
    const QByteArray lower = name.trimmed().toLower();
    if (lower == "authorization" || lower == "proxy-authorization")
        return true;
    for (const char *word : {"token", "key", "secret", "cookie", "password", "credential"})
        if (lower.contains(word))
            return true;
    for (const QByteArray &marked : config.secretHeaders)
        if (marked.trimmed().toLower() == lower)
            return true;
    return false;
}

QByteArray WorkspaceSecrets::referenceFor(const QString &server, const QByteArray &header)
{
    return ReferencePrefix.toByteArray() + keyFor(server, header).toUtf8();
}

QString WorkspaceSecrets::keyOf(const QByteArray &value)
{
    if (!value.startsWith(ReferencePrefix))
        return {};
    return QString::fromUtf8(value.mid(ReferencePrefix.size()));
}

Workspace WorkspaceSecrets::withReferences(const Workspace &workspace)
{
    Workspace w = workspace;
    for (Workspace::Server &s : w.servers)
        for (auto &[name, value] : s.config.headers)
            if (isSecretHeader(s.config, name))
                value = referenceFor(s.config.name, name);
    return w;
}

void WorkspaceSecrets::keep(const Workspace &workspace)
{
    QHash<QString, QByteArray> now;
    for (const Workspace::Server &s : workspace.servers)
        for (const auto &[name, value] : s.config.headers)
            if (isSecretHeader(s.config, name) && keyOf(value).isEmpty())
                now.insert(keyFor(s.config.name, name), value);
    // A reference still standing in for its value (it could not be read) keeps what the
    // store holds: only a header or server that is gone is removed.
    QSet<QString> referenced;
    for (const Workspace::Server &s : workspace.servers)
        for (const auto &[name, value] : s.config.headers)
            if (!keyOf(value).isEmpty())
                referenced.insert(keyOf(value));
    const auto failed = [this](const QString &what) {
        return [this, what](QString error) {
            if (!error.isEmpty())
                Q_EMIT storeFailed(u"%1: %2"_s.arg(what, error));
        };
    };
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        if (m_kept.value(it.key()) == it.value() && m_kept.contains(it.key()))
            continue;
        m_kept.insert(it.key(), it.value());
        m_store->write(it.key(), it.value(),
                       failed(tr("The secret %1 could not be stored").arg(it.key())));
    }
    for (const QString &key : m_kept.keys()) {
        if (now.contains(key) || referenced.contains(key))
            continue;
        m_kept.remove(key);
        m_store->remove(key, failed(tr("The secret %1 could not be removed").arg(key)));
    }
}

void WorkspaceSecrets::resolve(const Workspace &workspace, std::function<void(const Loaded &)> done)
{
    struct Pending
    {
        Loaded loaded;
        int waiting = 0;
        std::function<void(const Loaded &)> done;
    };
    auto pending = std::make_shared<Pending>();
    pending->loaded.workspace = workspace;
    pending->done = std::move(done);
    // The window may be gone when the store answers (it is closed while the keyring thinks).
    const auto answered = [pending, self = QPointer<WorkspaceSecrets>(this)] {
        if (--pending->waiting == 0 && self)
            pending->done(pending->loaded);
    };
    // One count for the loop itself, so no answer can finish it before every request is out.
    pending->waiting = 1;
    for (qsizetype si = 0; si < workspace.servers.size(); ++si) {
        const ServerConfig &c = workspace.servers.at(si).config;
        for (qsizetype hi = 0; hi < c.headers.size(); ++hi) {
            const auto &[name, value] = c.headers.at(hi);
            const QString key = keyOf(value);
            if (key.isEmpty() && !isSecretHeader(c, name))
                continue;
            ++pending->waiting;
            if (key.isEmpty()) {
                // Written by a Sonde that kept secrets in the settings: into the store.
                m_kept.insert(keyFor(c.name, name), value);
                pending->loaded.migrated = true;
                m_store->write(keyFor(c.name, name), value,
                               [pending, answered, server = c.name, name](QString error) {
                                   if (!error.isEmpty())
                                       pending->loaded.errors.append(
                                           tr("%1: the header %2 could not be moved to the "
                                              "secret store: %3")
                                               .arg(server, QString::fromUtf8(name), error));
                                   answered();
                               });
                continue;
            }
            if (!isSecretHeader(c, name))
                pending->loaded.workspace.servers[si].config.secretHeaders.append(name);
            m_store->read(key, [this, self = QPointer<WorkspaceSecrets>(this), pending, answered,
                                si, hi, key, server = c.name,
                                name](std::optional<QByteArray> read, QString error) {
                if (!self)
                    return;
                if (read) {
                    m_kept.insert(key, *read);
                    pending->loaded.workspace.servers[si].config.headers[hi].second = *read;
                } else {
                    if (!pending->loaded.unresolved.contains(server))
                        pending->loaded.unresolved.append(server);
                    pending->loaded.errors.append(
                        error.isEmpty()
                            ? tr("%1: the secret header %2 is not in the %3 secret store; "
                                 "enter it again (Edit server)")
                                  .arg(server, QString::fromUtf8(name), m_store->kind())
                            : tr("%1: the secret header %2 could not be read: %3")
                                  .arg(server, QString::fromUtf8(name), error));
                }
                answered();
            });
        }
    }
    answered();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "application/workspace/workspacesecrets.h"

#include "secrets/secretstore.h"

#include <QPointer>
#include <QSet>

#include <memory>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
constexpr QByteArrayView ReferencePrefix = "sonde-secret:";

// One secret value of a server's configuration, where it sits and under which store key.
struct Field
{
    enum class Kind
    {
        Header,
        Environment
    };
    Kind kind;
    qsizetype header = -1; // index into headers
    QString name;
    QByteArray value;
    QString key;
    QString words() const
    {
        return kind == Kind::Header ? WorkspaceSecrets::tr("header %1").arg(name)
                                    : WorkspaceSecrets::tr("variable %1").arg(name);
    }
};

QString headerKey(const QString &server, const QByteArray &header)
{
    return u"header/%1/%2"_s.arg(server, QString::fromUtf8(header));
}

QString environmentKey(const QString &server, const QString &name)
{
    return u"env/%1/%2"_s.arg(server, name);
}

// The values of `c` that belong in the store: secret ones, and any that is a reference
// already (a mark the settings do not hold any more still finds its value).
QList<Field> secretFields(const ServerConfig &c)
{
    QList<Field> fields;
    for (qsizetype i = 0; i < c.headers.size(); ++i) {
        const auto &[name, value] = c.headers.at(i);
        if (WorkspaceSecrets::isSecretHeader(c, name) || !WorkspaceSecrets::keyOf(value).isEmpty())
            fields.append(
                {Field::Kind::Header, i, QString::fromUtf8(name), value, headerKey(c.name, name)});
    }
    for (auto it = c.environment.cbegin(); it != c.environment.cend(); ++it)
        if (WorkspaceSecrets::isSecretEnvironment(c, it.key()) ||
            !WorkspaceSecrets::keyOf(it.value()).isEmpty())
            fields.append({Field::Kind::Environment, -1, it.key(), it.value().toUtf8(),
                           environmentKey(c.name, it.key())});
    return fields;
}

void setValue(ServerConfig &c, const Field &f, const QByteArray &value)
{
    if (f.kind == Field::Kind::Header)
        c.headers[f.header].second = value;
    else
        c.environment.insert(f.name, QString::fromUtf8(value));
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

bool WorkspaceSecrets::isSecretEnvironment(const ServerConfig &config, const QString &name)
{
    return !config.plainEnvironment.contains(name);
}

QByteArray WorkspaceSecrets::referenceFor(const QString &server, const QByteArray &header)
{
    return ReferencePrefix.toByteArray() + headerKey(server, header).toUtf8();
}

QString WorkspaceSecrets::environmentReferenceFor(const QString &server, const QString &name)
{
    return QString::fromUtf8(ReferencePrefix.toByteArray()) + environmentKey(server, name);
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
        for (const Field &f : secretFields(s.config))
            setValue(s.config, f, ReferencePrefix.toByteArray() + f.key.toUtf8());
    return w;
}

QStringList WorkspaceSecrets::missing(const ServerConfig &config)
{
    QStringList out;
    for (const Field &f : secretFields(config))
        if (!keyOf(f.value).isEmpty())
            out.append(f.words());
    return out;
}

void WorkspaceSecrets::keep(const Workspace &workspace)
{
    QHash<QString, QByteArray> now;
    // A reference still standing in for its value (it could not be read) keeps what the
    // store holds: only a value or server that is gone is removed.
    QSet<QString> referenced;
    for (const Workspace::Server &s : workspace.servers)
        for (const Field &f : secretFields(s.config)) {
            if (const QString key = keyOf(f.value); !key.isEmpty())
                referenced.insert(key);
            else
                now.insert(f.key, f.value);
        }
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
        for (const Field &f : secretFields(c)) {
            const QString key = keyOf(f.value);
            ++pending->waiting;
            if (key.isEmpty()) {
                // Written by a Sonde that kept secrets in the settings: into the store.
                m_kept.insert(f.key, f.value);
                pending->loaded.migrated = true;
                m_store->write(f.key, f.value,
                               [pending, answered, server = c.name, f](QString error) {
                                   if (!error.isEmpty())
                                       pending->loaded.errors.append(
                                           tr("%1: the %2 could not be moved to the secret "
                                              "store: %3")
                                               .arg(server, f.words(), error));
                                   answered();
                               });
                continue;
            }
            // A header kept as a secret although no rule says so: the user's mark.
            if (f.kind == Field::Kind::Header && !isSecretHeader(c, f.name.toUtf8()))
                pending->loaded.workspace.servers[si].config.secretHeaders.append(f.name.toUtf8());
            m_store->read(key, [this, self = QPointer<WorkspaceSecrets>(this), pending, answered,
                                si, key, server = c.name,
                                f](std::optional<QByteArray> read, QString error) {
                if (!self)
                    return;
                if (read) {
                    m_kept.insert(key, *read);
                    setValue(pending->loaded.workspace.servers[si].config, f, *read);
                } else {
                    if (!pending->loaded.unresolved.contains(server))
                        pending->loaded.unresolved.append(server);
                    pending->loaded.errors.append(
                        error.isEmpty()
                            ? tr("%1: the secret %2 is not in the %3 secret store; enter it "
                                 "again (Edit server)")
                                  .arg(server, f.words(), m_store->kind())
                            : tr("%1: the secret %2 could not be read: %3")
                                  .arg(server, f.words(), error));
                }
                answered();
            });
        }
    }
    answered();
}

} // namespace Sonde

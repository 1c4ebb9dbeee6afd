// SPDX-License-Identifier: MIT
#include "keyringsecretstore.h"

#include <qt6keychain/keychain.h>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

template <typename JobType> JobType *newJob(const QString &service, const QString &key)
{
    auto *job = new JobType(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

QString keyringError(const QKeychain::Job *job)
{
    return u"keyring: %1"_s.arg(job->errorString());
}

} // namespace

KeyringSecretStore::KeyringSecretStore(const QString &service) : m_service(service)
{
}

void KeyringSecretStore::read(
    const QString &key, std::function<void(std::optional<QByteArray> value, QString error)> done)
{
    auto *job = newJob<QKeychain::ReadPasswordJob>(m_service, key);
    QObject::connect(job, &QKeychain::Job::finished, job,
                     [job, done = std::move(done)](QKeychain::Job *) {
                         if (job->error() == QKeychain::NoError)
                             done(job->binaryData(), QString());
                         else if (job->error() == QKeychain::EntryNotFound)
                             done(std::nullopt, QString());
                         else
                             done(std::nullopt, keyringError(job));
                     });
    job->start();
}

void KeyringSecretStore::write(const QString &key, const QByteArray &value,
                               std::function<void(QString error)> done)
{
    auto *job = newJob<QKeychain::WritePasswordJob>(m_service, key);
    job->setBinaryData(value);
    QObject::connect(job, &QKeychain::Job::finished, job,
                     [job, done = std::move(done)](QKeychain::Job *) {
                         done(job->error() == QKeychain::NoError ? QString() : keyringError(job));
                     });
    job->start();
}

void KeyringSecretStore::remove(const QString &key, std::function<void(QString error)> done)
{
    auto *job = newJob<QKeychain::DeletePasswordJob>(m_service, key);
    QObject::connect(job, &QKeychain::Job::finished, job,
                     [job, done = std::move(done)](QKeychain::Job *) {
                         const bool gone = job->error() == QKeychain::NoError ||
                                           job->error() == QKeychain::EntryNotFound;
                         done(gone ? QString() : keyringError(job));
                     });
    job->start();
}

QString KeyringSecretStore::kind() const
{
    return u"keyring"_s;
}

} // namespace Sonde

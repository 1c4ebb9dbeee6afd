// SPDX-License-Identifier: MIT
#pragma once
// A SecretStore's answers waited for, for the store tests: "no answer" when none came.
#include "secrets/secretstore.h"

#include <QTest>

#include <optional>
#include <utility>

namespace SecretStoreWait {

using ReadResult = std::pair<std::optional<QByteArray>, QString>;

inline QString writeNow(Sonde::SecretStore &store, const QString &key, const QByteArray &value)
{
    QString error;
    bool answered = false;
    store.write(key, value, [&](QString e) {
        error = e;
        answered = true;
    });
    return QTest::qWaitFor([&] { return answered; }, 10000) ? error : QStringLiteral("no answer");
}

inline QString removeNow(Sonde::SecretStore &store, const QString &key)
{
    QString error;
    bool answered = false;
    store.remove(key, [&](QString e) {
        error = e;
        answered = true;
    });
    return QTest::qWaitFor([&] { return answered; }, 10000) ? error : QStringLiteral("no answer");
}

inline ReadResult readNow(Sonde::SecretStore &store, const QString &key)
{
    ReadResult result;
    bool answered = false;
    store.read(key, [&](std::optional<QByteArray> v, QString e) {
        result = {v, e};
        answered = true;
    });
    if (!QTest::qWaitFor([&] { return answered; }, 10000))
        return {std::nullopt, QStringLiteral("no answer")};
    return result;
}

} // namespace SecretStoreWait

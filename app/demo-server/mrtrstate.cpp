// SPDX-License-Identifier: MIT
#include "mrtrstate.h"

#include "util/clock.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace Sonde {

static QByteArray processKey()
{
    static const QByteArray key = [] {
        QByteArray k(32, Qt::Uninitialized);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(k.data()),
                                              k.size() / qsizetype(sizeof(quint32)));
        return k;
    }();
    return key;
}

static constexpr auto Base64Url = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

MrtrState::MrtrState(const Clock *clock) : m_key(processKey()), m_clock(clock)
{
}

MrtrState::MrtrState(QByteArray key, const Clock *clock) : m_key(std::move(key)), m_clock(clock)
{
}

qint64 MrtrState::nowMs() const
{
    static const SteadyClock steady;
    return (m_clock ? m_clock : &steady)->nowMs();
}

QString MrtrState::bindingOf(const QString &name, const QJsonObject &arguments)
{
    // QJsonObject keeps its keys sorted, so the same arguments give the same text.
    const QByteArray args = QJsonDocument(arguments).toJson(QJsonDocument::Compact);
    return name + u'\n' +
           QString::fromLatin1(QCryptographicHash::hash(args, QCryptographicHash::Sha256).toHex());
}

QByteArray MrtrState::mac(const QString &method, const QString &name, const QByteArray &body) const
{
    // The binding is part of the signed text, so a state cannot move to another request.
    return QMessageAuthenticationCode::hash(method.toUtf8() + '\n' + name.toUtf8() + '\n' + body,
                                            m_key, QCryptographicHash::Sha256);
}

QString MrtrState::seal(const QString &method, const QString &name,
                        const QJsonObject &payload) const
{
    const QByteArray body =
        QJsonDocument(QJsonObject{{"exp"_L1, nowMs() + LifetimeMs}, {"p"_L1, payload}})
            .toJson(QJsonDocument::Compact);
    return QString::fromLatin1(body.toBase64(Base64Url) + '.' +
                               mac(method, name, body).toBase64(Base64Url));
}

std::optional<QJsonObject> MrtrState::open(const QString &state, const QString &method,
                                           const QString &name) const
{
    const QByteArray text = state.toLatin1();
    const qsizetype dot = text.indexOf('.');
    if (dot <= 0)
        return std::nullopt;
    const auto strict = Base64Url | QByteArray::AbortOnBase64DecodingErrors;
    const auto body = QByteArray::fromBase64Encoding(text.left(dot), strict);
    const auto tag = QByteArray::fromBase64Encoding(text.mid(dot + 1), strict);
    if (!body || !tag)
        return std::nullopt;
    const QByteArray expected = mac(method, name, *body);
    // Compared in full, not up to the first difference.
    if ((*tag).size() != expected.size())
        return std::nullopt;
    char diff = 0;
    for (qsizetype i = 0; i < expected.size(); ++i)
        diff |= char((*tag).at(i) ^ expected.at(i));
    if (diff != 0)
        return std::nullopt;
    const QJsonObject sealed = QJsonDocument::fromJson(*body).object();
    if (sealed.value("exp"_L1).toInteger() <= nowMs())
        return std::nullopt;
    return sealed.value("p"_L1).toObject();
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "auth/pkce.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace Sonde {

QByteArray Pkce::verifier(int length)
{
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    static constexpr quint32 size = sizeof(alphabet) - 1; // 66
    length = qBound(43, length, 128);
    QByteArray out;
    out.reserve(length);
    QRandomGenerator *random = QRandomGenerator::system();
    while (out.size() < length)
        out += alphabet[random->bounded(size)];
    return out;
}

QByteArray Pkce::challenge(const QByteArray &verifier)
{
    return QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray Pkce::randomToken()
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof(words))
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace Sonde

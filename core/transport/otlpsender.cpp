// SPDX-License-Identifier: MIT
#include "transport/otlpsender.h"

#include "transport/httpexchange.h"

#include <QFile>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

QString OtlpSender::Result::describe() const
{
    const QString where = url.toDisplayString();
    if (ok())
        return u"the collector at %1 took the export (HTTP %2)"_s.arg(where).arg(status);
    return u"not sent to the collector at %1: %2"_s.arg(where, error);
}

OtlpSender::OtlpSender(QObject *parent) : QObject(parent), m_nam(new QNetworkAccessManager(this))
{
    qRegisterMetaType<Sonde::OtlpSender::Result>();
}

QString OtlpSender::checkUrl(const QUrl &url)
{
    if (!url.isValid() || url.isRelative())
        return u"\"%1\" is not a URL"_s.arg(url.toString());
    if (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)
        return u"a collector URL is http or https, not %1"_s.arg(url.scheme());
    if (url.host().isEmpty())
        return u"the collector URL %1 names no host"_s.arg(url.toString());
    return {};
}

bool OtlpSender::readDocument(const QString &path, qint64 maxBytes, QByteArray *document,
                              QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1 back: %2"_s.arg(path, file.errorString());
        return false;
    }
    if (file.size() > maxBytes) {
        const QLocale c = QLocale::c();
        *error = u"the export is %1 bytes, over the %2 bytes one send takes (the limit); the "
                 u"file is written"_s.arg(c.toString(file.size()), c.toString(maxBytes));
        return false;
    }
    *document = file.readAll();
    if (document->size() != file.size()) {
        *error = u"cannot read %1 back: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

void OtlpSender::send(const QUrl &url, const QByteArray &body)
{
    Result r;
    r.url = url;
    r.error = m_reply ? u"an export is still being sent"_s : checkUrl(url);
    if (!r.error.isEmpty()) {
        // Queued, like every other answer: the caller connects before or after send().
        QTimer::singleShot(0, this, [this, r] { Q_EMIT finished(r); });
        return;
    }
    m_result = r;
    m_overLimit = false;
    m_uploaded = 0;
    m_documentBytes = body.size();
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(m_timeoutMs);
    // A redirected POST would be a second send, to a host the user did not name.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    m_reply = HttpExchange::postOnce(m_nam, request, body);
    QNetworkReply *reply = m_reply;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] {
        if (m_overLimit)
            return;
        m_result.body += reply->read(m_maxAnswerBytes + 1 - m_result.body.size());
        if (m_result.body.size() > m_maxAnswerBytes) {
            m_overLimit = true;
            m_result.body.truncate(m_maxAnswerBytes);
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64 total) {
        // Qt reports (0, 0) as the reply ends: the furthest point reached stays.
        if (total > 0)
            m_uploaded = std::max(m_uploaded, sent);
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { finish(reply); });
}

void OtlpSender::finish(QNetworkReply *reply)
{
    reply->deleteLater();
    m_reply = nullptr;
    Result r = std::move(m_result);
    if (!m_overLimit && reply->isOpen())
        r.body += reply->read(m_maxAnswerBytes - r.body.size());
    r.status = HttpExchange::status(reply);
    const QString answer = QString::fromUtf8(r.body.left(200)).simplified();
    if (m_overLimit) {
        r.error =
            u"the collector's answer is over %1 bytes (the limit); the rest was not read"_s.arg(
                m_maxAnswerBytes);
    } else if (r.status == 0) {
        // Qt says "Unknown error" for a connection closed with no answer it could read:
        // said in words, with how much of the export went out (a collector that refuses an
        // export unread, a wrong path or one over its size limit, closes the connection
        // under it, and its status goes with the connection).
        const bool cut = m_uploaded > 0 && m_uploaded < m_documentBytes;
        r.error = reply->error() == QNetworkReply::OperationCanceledError
                      ? u"no answer within %1 ms (the timeout)"_s.arg(m_timeoutMs)
                  : cut ? u"the collector closed the connection after %1 of the export's %2 "
                          u"bytes, without an answer Sonde could read: it refused the export "
                          u"unread (a wrong path, or a body over its size limit?)"_s.arg(m_uploaded)
                              .arg(m_documentBytes)
                  : reply->error() == QNetworkReply::ContentReSendError ||
                          reply->error() == QNetworkReply::RemoteHostClosedError
                      ? u"the collector closed the connection without answering"_s
                      : reply->errorString();
    } else if (r.status < 200 || r.status >= 300) {
        r.error = u"the collector answered HTTP %1%2"_s.arg(r.status).arg(
            answer.isEmpty() ? QString() : u": "_s + answer);
    }
    Q_EMIT finished(r);
}

} // namespace Sonde

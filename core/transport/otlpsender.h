// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sonde {

// POSTs one OTLP/JSON export (OtlpExport's document) to a collector the user named
// (OTLP/HTTP with Content-Type: application/json, e.g. http://localhost:4318/v1/traces).
// Once: through HttpExchange::postOnce, so Qt never re-sends it on a dropped connection, and
// no redirect is followed. Bounded: a transfer timeout and a limit on the answer's size, each
// named in the message when it is hit. Nothing is sent unless send() is called with a URL.
// Thread: the one it lives on (its network manager is its child); emits finished() once per
// send, at most one send at a time.
class OtlpSender : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultTimeoutMs = 10'000;
    static constexpr qsizetype DefaultMaxAnswerBytes = 64 * 1024;
    // The largest export one POST carries: the document is held whole to be sent, so this
    // bounds that memory. An export over it is written to its file and not sent.
    static constexpr qint64 DefaultMaxDocumentBytes = 64 * 1024 * 1024;

    struct Result
    {
        QUrl url;
        int status = 0; // the HTTP status; 0 when no answer came
        QByteArray body;
        QString error; // empty when the collector took the export (2xx)
        bool ok() const { return error.isEmpty(); }
        // One line for the user: "collector at URL took the export (HTTP 200)" or the error.
        QString describe() const;
    };

    explicit OtlpSender(QObject *parent = nullptr);
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    void setMaxAnswerBytes(qsizetype bytes) { m_maxAnswerBytes = bytes; }
    int timeoutMs() const { return m_timeoutMs; }
    bool isBusy() const { return m_reply != nullptr; }

    // Why `url` cannot be a collector (empty when it can): http or https with a host.
    static QString checkUrl(const QUrl &url);
    // The written export at `path`, read back to be sent (the collector takes it whole); a
    // file over `maxBytes` is not read, and the error names the limit. On the thread that
    // wrote it: a large file is read in a second or more.
    static bool readDocument(const QString &path, qint64 maxBytes, QByteArray *document,
                             QString *error);
    // Starts the POST; finished() comes later, also for a bad URL or a send while busy.
    void send(const QUrl &url, const QByteArray &body);

Q_SIGNALS:
    void finished(const Sonde::OtlpSender::Result &result);

private:
    void finish(QNetworkReply *reply);

    QNetworkAccessManager *m_nam;
    QNetworkReply *m_reply = nullptr;
    Result m_result;
    int m_timeoutMs = DefaultTimeoutMs;
    qsizetype m_maxAnswerBytes = DefaultMaxAnswerBytes;
    bool m_overLimit = false;
    qint64 m_uploaded = 0; // bytes of the document written so far
    qint64 m_documentBytes = 0;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::OtlpSender::Result)

// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// What `sonde-demo-server --replay SESSION.jsonl` serves: the answers of a Sonde JSONL
// transcript ({"t","t_ms","server","gen","dir","msg"} records). A "send" request is paired
// with the "recv" response of the same server, generation and JSON-RPC id, and filed under
// its method and normalised params (keys sorted, `_meta` with its progress token left out).
// Several answers to the same request are served in the order they were asked, then the last
// one again. initialize, server/discover and ping describe the client, not a question: they
// are matched on the method alone.
class ReplayBook
{
public:
    static constexpr qsizetype MaxFileBytes = qsizetype(1) << 30; // 1 GiB
    static constexpr qsizetype MaxLineBytes = 64 * 1024 * 1024;   // the CLI's --max-frame-mb

    // A recorded answer: the response's "result" or "error" member.
    struct Answer
    {
        QJsonObject result;
        std::optional<QJsonObject> error; // {code, message, data?}
    };

    bool load(const QString &path, QString *error);
    // `source` names the input in messages (the file's path).
    bool parse(const QByteArray &jsonl, const QString &source, QString *error);

    // The next answer recorded for this request; nullopt when it was never seen.
    std::optional<Answer> take(const QString &method, const QJsonObject &params);
    // Whether any request with `method` was recorded (whatever its params).
    bool knowsMethod(const QString &method) const { return m_methods.contains(method); }
    QString source() const { return m_source; }
    int answerCount() const { return m_answerCount; }

    static QString key(const QString &method, const QJsonObject &params);

private:
    struct Queue
    {
        QList<Answer> answers;
        qsizetype next = 0;
    };
    QHash<QString, Queue> m_queues;
    QHash<QString, int> m_methods; // method -> answers recorded
    QString m_source;
    int m_answerCount = 0;
};

} // namespace Sonde

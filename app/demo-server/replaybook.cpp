// SPDX-License-Identifier: MIT
#include "replaybook.h"

#include "protocol/jsonrpcmessage.h"

#include <QFile>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

static bool matchedOnMethodAlone(const QString &method)
{
    return method == "initialize"_L1 || method == "server/discover"_L1 || method == "ping"_L1;
}

QString ReplayBook::key(const QString &method, const QJsonObject &params)
{
    if (matchedOnMethodAlone(method))
        return method;
    QJsonObject normalised = params;
    normalised.remove("_meta"_L1); // progress token, modern era fields: not the question
    // QJsonObject keeps its keys sorted, so the compact text is the normal form.
    return method + u' ' +
           QString::fromUtf8(QJsonDocument(normalised).toJson(QJsonDocument::Compact));
}

bool ReplayBook::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    if (f.size() > MaxFileBytes) {
        *error = u"%1: %2 bytes is over the %3 MiB a replay may load"_s.arg(path).arg(f.size()).arg(
            MaxFileBytes / (1024 * 1024));
        return false;
    }
    return parse(f.readAll(), path, error);
}

bool ReplayBook::parse(const QByteArray &jsonl, const QString &source, QString *error)
{
    m_source = source;
    struct Pending
    {
        QString key;
        QString method;
        qsizetype slot = 0;
    };
    QHash<QString, Pending> pending; // server, generation, id -> the request asked
    QHash<QString, QList<std::optional<Answer>>> asked;
    qsizetype lineNo = 0;
    for (qsizetype start = 0; start < jsonl.size();) {
        qsizetype end = jsonl.indexOf('\n', start);
        if (end < 0)
            end = jsonl.size();
        const QByteArrayView line = QByteArrayView(jsonl).sliced(start, end - start).trimmed();
        start = end + 1;
        ++lineNo;
        if (line.isEmpty())
            continue;
        if (line.size() > MaxLineBytes) {
            *error = u"%1:%2: a line of %3 bytes is over the %4 MiB limit"_s.arg(source)
                         .arg(lineNo)
                         .arg(line.size())
                         .arg(MaxLineBytes / (1024 * 1024));
            return false;
        }
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(line.toByteArray(), &pe);
        if (pe.error != QJsonParseError::NoError || !d.isObject()) {
            *error = u"%1:%2: not a transcript record (%3)"_s.arg(source).arg(lineNo).arg(
                pe.error != QJsonParseError::NoError ? pe.errorString()
                                                     : u"a record is a JSON object"_s);
            return false;
        }
        const QJsonObject record = d.object();
        const QString dir = record.value("dir"_L1).toString();
        const QJsonObject msg = record.value("msg"_L1).toObject();
        if ((dir != "send"_L1 && dir != "recv"_L1) || !msg.contains("id"_L1))
            continue; // notifications, stderr, engine events
        const QString exchange = record.value("server"_L1).toString() + u'\x1f' +
                                 QString::number(record.value("gen"_L1).toInteger()) + u'\x1f' +
                                 JsonRpcMessage::idKey(msg.value("id"_L1));
        const bool request = msg.value("method"_L1).isString();
        if (dir == "send"_L1 && request) {
            const QString method = msg.value("method"_L1).toString();
            const QString k = key(method, msg.value("params"_L1).toObject());
            asked[k].append(std::nullopt);
            pending.insert(exchange, {k, method, asked[k].size() - 1});
        } else if (dir == "recv"_L1 && !request) {
            const auto it = pending.constFind(exchange);
            if (it == pending.cend())
                continue; // an answer to a request the file does not hold
            Answer a;
            if (msg.value("error"_L1).isObject())
                a.error = msg.value("error"_L1).toObject();
            else
                a.result = msg.value("result"_L1).toObject();
            asked[it->key][it->slot] = a;
            m_methods[it->method] += 1;
            ++m_answerCount;
            pending.erase(it);
        }
    }
    // Requests never answered (cut by the end of the recording, cancelled) leave no answer.
    for (auto it = asked.cbegin(); it != asked.cend(); ++it) {
        Queue q;
        for (const std::optional<Answer> &a : it.value())
            if (a)
                q.answers.append(*a);
        if (!q.answers.isEmpty())
            m_queues.insert(it.key(), q);
    }
    return true;
}

std::optional<ReplayBook::Answer> ReplayBook::take(const QString &method, const QJsonObject &params)
{
    const auto it = m_queues.find(key(method, params));
    if (it == m_queues.end())
        return std::nullopt;
    const Answer a = it->answers.at(std::min(it->next, it->answers.size() - 1));
    it->next = std::min(it->next + 1, it->answers.size());
    return a;
}

} // namespace Sonde

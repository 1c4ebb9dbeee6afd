// SPDX-License-Identifier: MIT
#include "collectionwriter.h"

#include "callexpectation.h"
#include "collection.h"
#include "config/serverentry.h"
#include "transcript/redactor.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QByteArray compact(const QJsonValue &v)
{
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    if (v.isArray())
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    // A scalar: its JSON text, without the array around it.
    return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
}

// `o` on one line, the keys in `first` first (in that order), then the rest sorted.
QByteArray line(const QJsonObject &o, const QStringList &first)
{
    QStringList keys;
    for (const QString &k : first)
        if (o.contains(k))
            keys.append(k);
    for (const QString &k : o.keys())
        if (!first.contains(k))
            keys.append(k);
    QByteArrayList parts;
    for (const QString &k : std::as_const(keys))
        parts.append(compact(k) + ": " + compact(o.value(k)));
    return "{" + parts.join(", ") + "}";
}

bool isSecretHeader(const ServerConfig &c, const QByteArray &name)
{
    for (const QByteArray &s : c.secretHeaders)
        if (s.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    return name.compare("authorization", Qt::CaseInsensitive) == 0 ||
           Redactor::isSecretName(QString::fromUtf8(name));
}

QString uniqueName(const QString &wanted, const QJsonArray &calls)
{
    QStringList taken;
    for (const QJsonValue &c : calls)
        taken.append(c.toObject().value("name"_L1).toString());
    QString name = wanted;
    for (int n = 2; taken.contains(name); ++n)
        name = u"%1 (%2)"_s.arg(wanted).arg(n);
    return name;
}

} // namespace

QJsonObject CollectionWriter::serverEntry(const ServerConfig &c, QStringList *leftOut)
{
    // The workspace's entry, with what would write a secret down taken out: an env value
    // whose name says it is one becomes a placeholder, a secret header is left out.
    QJsonObject s = ServerEntry::toJson(c);
    if (c.route == ServerConfig::Route::Stdio) {
        QJsonObject env = s.value("env"_L1).toObject();
        for (auto it = c.environment.begin(); it != c.environment.end(); ++it) {
            if (!Redactor::isSecretName(it.key()))
                continue;
            env.insert(it.key(), u"${env:%1}"_s.arg(it.key()));
            if (leftOut)
                leftOut->append(u"env %1 (written as ${env:%1})"_s.arg(it.key()));
        }
        s.insert("env"_L1, env);
    } else {
        QJsonObject headers = s.value("headers"_L1).toObject();
        for (const auto &[name, value] : c.headers) {
            if (!isSecretHeader(c, name))
                continue;
            headers.remove(QString::fromUtf8(name));
            if (leftOut)
                leftOut->append(u"header %1"_s.arg(QString::fromUtf8(name)));
        }
        if (headers.isEmpty())
            s.remove("headers"_L1);
        else
            s.insert("headers"_L1, headers);
    }
    return s;
}

QJsonObject CollectionWriter::expectFrom(const QJsonValue &result, bool rpcError,
                                         const QString &errorMessage)
{
    CallExpectation::Answer answer;
    answer.result = result;
    answer.rpcError = rpcError;
    answer.errorMessage = errorMessage;
    answer.toolCall = true;
    const bool isError = rpcError || result.toObject().value("isError"_L1).toBool();
    QJsonObject expect{{"is_error"_L1, isError}};
    const QString text = CallExpectation::answerText(answer).section(u'\n', 0, 0).trimmed();
    if (!text.isEmpty())
        expect.insert("text_contains"_L1, text.left(TextPrefixChars));
    return expect;
}

QByteArray CollectionWriter::format(const QJsonObject &collection)
{
    QByteArrayList fields;
    const QStringList order = {u"name"_s, u"server"_s, u"calls"_s};
    for (const QString &key : order) {
        if (!collection.contains(key))
            continue;
        if (key != "calls"_L1) {
            fields.append(compact(key) + ": " +
                          (key == "server"_L1 ? line(collection.value(key).toObject(),
                                                     {u"type"_s, u"command"_s, u"args"_s, u"env"_s,
                                                      u"cwd"_s, u"url"_s})
                                              : compact(collection.value(key))));
            continue;
        }
        QByteArrayList calls;
        for (const QJsonValue &c : collection.value(key).toArray())
            calls.append("   " + line(c.toObject(), {u"name"_s, u"tool"_s, u"args"_s, u"method"_s,
                                                     u"params"_s, u"expect"_s}));
        fields.append("\"calls\": [\n" + calls.join(",\n") + "]");
    }
    for (const QString &key : collection.keys())
        if (!order.contains(key))
            fields.append(compact(key) + ": " + compact(collection.value(key)));
    return "{" + fields.join(",\n ") + "}\n";
}

bool CollectionWriter::append(const QString &path, const ServerConfig &server, const Call &call,
                              QStringList *leftOut, int *calls, QString *error)
{
    QJsonObject collection;
    QFile existing(path);
    if (existing.exists() && existing.size() > 0) {
        if (existing.size() > Collection::MaxFileBytes) {
            *error = u"%1 is over %2 MiB: not a collection"_s.arg(path).arg(
                Collection::MaxFileBytes / (1024 * 1024));
            return false;
        }
        if (!existing.open(QIODevice::ReadOnly)) {
            *error = u"%1: %2"_s.arg(path, existing.errorString());
            return false;
        }
        const QByteArray text = existing.readAll();
        // Refused exactly as `sonde-cli run` would refuse it.
        if (!Collection::parse(text, path, QFileInfo(path).absolutePath(), error))
            return false;
        collection = QJsonDocument::fromJson(text).object();
    } else {
        collection.insert("name"_L1, QFileInfo(path).completeBaseName());
        collection.insert("server"_L1, serverEntry(server, leftOut));
    }
    QJsonArray list = collection.value("calls"_L1).toArray();
    QJsonObject entry{{"name"_L1, uniqueName(call.name.isEmpty() ? call.tool : call.name, list)},
                      {"tool"_L1, call.tool},
                      {"args"_L1, call.args}};
    if (!call.expect.isEmpty())
        entry.insert("expect"_L1, call.expect);
    list.append(entry);
    collection.insert("calls"_L1, list);
    const QByteArray text = format(collection);
    // What is written must read back as a collection: checked before the file is touched.
    if (!Collection::parse(text, path, QFileInfo(path).absolutePath(), error))
        return false;
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size() || !out.commit()) {
        *error = u"%1: %2"_s.arg(path, out.errorString());
        return false;
    }
    if (calls)
        *calls = int(list.size());
    return true;
}

} // namespace Sonde

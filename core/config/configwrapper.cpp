// SPDX-License-Identifier: MIT
#include "config/configwrapper.h"

#include "config/jsoncreader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Where each value of a JSONC text is, to the byte: an edit replaces a value's span and
// leaves every other byte (comments, trailing commas, spacing) as it was.
struct TextSpan
{
    qsizetype start = -1, end = -1;
    bool valid() const { return start >= 0; }
};
struct SpanMember
{
    QString key;
    TextSpan value;
};

class JsoncSpans
{
public:
    explicit JsoncSpans(const QByteArray &text) : m_t(text) {}

    // The members of the object at `at` (its '{'), in order.
    std::optional<QList<SpanMember>> object(qsizetype at)
    {
        QList<SpanMember> members;
        const bool ok = items(at, '{', '}', [&] {
            const qsizetype keyStart = m_p;
            if (!string())
                return false;
            const QJsonArray key =
                QJsonDocument::fromJson('[' + m_t.mid(keyStart, m_p - keyStart) + ']').array();
            skip();
            if (!expect(':'))
                return false;
            skip();
            SpanMember m{key.at(0).toString(), {m_p, -1}};
            if (!value())
                return false;
            m.value.end = m_p;
            members.append(m);
            return true;
        });
        return ok ? std::optional(members) : std::nullopt;
    }
    // The elements of the array at `at` (its '[').
    std::optional<QList<TextSpan>> array(qsizetype at)
    {
        QList<TextSpan> elements;
        const bool ok = items(at, '[', ']', [&] {
            const qsizetype start = m_p;
            if (!value())
                return false;
            elements.append({start, m_p});
            return true;
        });
        return ok ? std::optional(elements) : std::nullopt;
    }
    qsizetype firstValue()
    {
        m_p = 0;
        if (m_t.startsWith("\xEF\xBB\xBF"))
            m_p = 3;
        skip();
        return m_p;
    }

private:
    // The items between `open` and `close` (JSONC: commas, a trailing one included, and
    // comments anywhere), each read by `item` at its first byte.
    template <typename Item> bool items(qsizetype at, char open, char close, Item item)
    {
        m_p = at;
        if (!expect(open))
            return false;
        for (;;) {
            skip();
            if (peek() == close) {
                ++m_p;
                return true;
            }
            if (peek() == ',') {
                ++m_p;
                continue;
            }
            if (!item())
                return false;
        }
    }
    char peek() const { return m_p < m_t.size() ? m_t.at(m_p) : '\0'; }
    bool expect(char c)
    {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }
    void skip()
    {
        while (m_p < m_t.size()) {
            const char c = m_t.at(m_p);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                ++m_p;
            } else if (m_t.mid(m_p, 2) == "//") {
                const qsizetype nl = m_t.indexOf('\n', m_p);
                m_p = nl < 0 ? m_t.size() : nl + 1;
            } else if (m_t.mid(m_p, 2) == "/*") {
                const qsizetype close = m_t.indexOf("*/", m_p + 2);
                m_p = close < 0 ? m_t.size() : close + 2;
            } else {
                return;
            }
        }
    }
    bool string()
    {
        if (!expect('"'))
            return false;
        while (m_p < m_t.size()) {
            const char c = m_t.at(m_p++);
            if (c == '\\')
                ++m_p;
            else if (c == '"')
                return true;
        }
        return false;
    }
    bool value()
    {
        const char c = peek();
        if (c == '{') {
            const qsizetype save = m_p;
            JsoncSpans inner(m_t);
            const auto members = inner.object(save);
            m_p = inner.m_p;
            return members.has_value();
        }
        if (c == '[') {
            JsoncSpans inner(m_t);
            const auto elements = inner.array(m_p);
            m_p = inner.m_p;
            return elements.has_value();
        }
        if (c == '"')
            return string();
        const qsizetype start = m_p;
        while (m_p < m_t.size() && (QChar::isLetterOrNumber(uchar(m_t.at(m_p))) ||
                                    m_t.at(m_p) == '-' || m_t.at(m_p) == '+' || m_t.at(m_p) == '.'))
            ++m_p;
        return m_p > start;
    }

    const QByteArray &m_t;
    qsizetype m_p = 0;
};

QString decodeJsonString(const QByteArray &file, TextSpan s)
{
    return QJsonDocument::fromJson('[' + file.mid(s.start, s.end - s.start) + ']')
        .array()
        .at(0)
        .toString();
}

QByteArray jsonStringText(const QString &s)
{
    const QByteArray array = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

const SpanMember *findMember(const QList<SpanMember> &members, QStringView key)
{
    for (const SpanMember &m : members) {
        if (m.key == key)
            return &m;
    }
    return nullptr;
}

// The server map's members, and the span of the entry called `name` (when given).
struct LocatedServers
{
    QList<SpanMember> servers;
    QString error;
};
LocatedServers locateServers(const QByteArray &file)
{
    LocatedServers l;
    QString error;
    qsizetype offset = 0;
    // The same checks the import makes (ServerConfigFile), so a file Sonde cannot read is
    // never edited.
    const auto json = JsoncReader::toJson(file, &error, &offset);
    if (!json || !QJsonDocument::fromJson(*json).isObject()) {
        l.error = json ? u"not a JSON object"_s : error;
        return l;
    }
    JsoncSpans spans(file);
    const auto root = spans.object(spans.firstValue());
    if (!root) {
        l.error = u"not a JSON object"_s;
        return l;
    }
    const SpanMember *map = findMember(*root, u"mcpServers");
    if (!map)
        map = findMember(*root, u"servers");
    if (!map || file.at(map->value.start) != '{') {
        l.error = u"no \"mcpServers\" or \"servers\" object"_s;
        return l;
    }
    l.servers = *JsoncSpans(file).object(map->value.start);
    return l;
}

bool isSondeProxy(const QString &command, const QStringList &args)
{
    return QFileInfo(command).fileName() == "sonde-cli"_L1 && args.value(0) == "proxy"_L1;
}

} // namespace

std::optional<QList<ConfigWrapper::Entry>>
ConfigWrapper::entries(const QByteArray &file, QString *error, const QByteArray &sidecar)
{
    const LocatedServers l = locateServers(file);
    if (!l.error.isEmpty()) {
        *error = l.error;
        return std::nullopt;
    }
    const QJsonObject kept =
        QJsonDocument::fromJson(sidecar).object().value(u"entries"_s).toObject();
    QList<Entry> out;
    for (const SpanMember &s : l.servers) {
        if (file.at(s.value.start) != '{')
            continue;
        const QList<SpanMember> fields = *JsoncSpans(file).object(s.value.start);
        Entry e;
        e.name = s.key;
        // Wrapped: the entry is still what wrap() wrote (an HTTP entry's URL alone cannot
        // tell a proxy from any other local server).
        e.wrapped = kept.value(s.key).toObject().value(u"wrapped"_s).toString().toUtf8() ==
                    file.mid(s.value.start, s.value.end - s.value.start);
        if (e.wrapped)
            e.target = kept.value(s.key).toObject().value(u"target"_s).toString();
        if (const SpanMember *url = findMember(fields, u"url")) {
            e.http = true;
            e.url = decodeJsonString(file, url->value);
        } else if (const SpanMember *command = findMember(fields, u"command")) {
            e.command = decodeJsonString(file, command->value);
            QStringList args;
            if (const SpanMember *a = findMember(fields, u"args")) {
                const QList<TextSpan> values = *JsoncSpans(file).array(a->value.start);
                for (const TextSpan &v : values)
                    args.append(decodeJsonString(file, v));
            }
            e.wrapped = e.wrapped || isSondeProxy(e.command, args);
        }
        out.append(e);
    }
    return out;
}

ConfigWrapper::Edit ConfigWrapper::wrap(const QByteArray &file, const QString &name,
                                        const Options &options)
{
    Edit edit;
    const LocatedServers l = locateServers(file);
    if (!l.error.isEmpty()) {
        edit.error = l.error;
        return edit;
    }
    const SpanMember *server = findMember(l.servers, name);
    if (!server || file.at(server->value.start) != '{') {
        QStringList names;
        for (const SpanMember &m : l.servers)
            names.append(m.key);
        edit.error = u"no server named \"%1\" (the file has: %2)"_s.arg(name, names.join(u", "_s));
        return edit;
    }
    const TextSpan entry = server->value;
    const QList<SpanMember> fields = *JsoncSpans(file).object(entry.start);
    QList<std::pair<TextSpan, QByteArray>> replacements; // applied from the last to the first
    if (const SpanMember *url = findMember(fields, u"url")) {
        const QString urlText = decodeJsonString(file, url->value);
        if (urlText.contains(u"${"_s)) {
            edit.error = u"server \"%1\": its url holds a placeholder the client resolves (%2); "
                         "point the client at the proxy by hand"_s.arg(name, urlText);
            return edit;
        }
        const QUrl target(urlText);
        if (target.host() == "127.0.0.1"_L1 && target.port() == options.httpPort) {
            edit.error = u"server \"%1\" already points at the proxy's port"_s.arg(name);
            return edit;
        }
        if (options.httpPort == 0) {
            edit.error =
                u"server \"%1\" is an HTTP server: the proxy's port is needed (--port)"_s.arg(name);
            return edit;
        }
        QUrl proxied = target;
        proxied.setScheme(u"http"_s);
        proxied.setHost(u"127.0.0.1"_s);
        proxied.setPort(options.httpPort);
        proxied.setUserInfo({});
        edit.target = target.toString();
        replacements.append({url->value, jsonStringText(proxied.toString())});
    } else if (const SpanMember *command = findMember(fields, u"command")) {
        const SpanMember *args = findMember(fields, u"args");
        QList<TextSpan> argSpans =
            args ? *JsoncSpans(file).array(args->value.start) : QList<TextSpan>();
        QStringList decoded;
        for (const TextSpan &a : argSpans)
            decoded.append(decodeJsonString(file, a));
        if (isSondeProxy(decodeJsonString(file, command->value), decoded)) {
            edit.error = u"server \"%1\" already runs through sonde-cli proxy"_s.arg(name);
            return edit;
        }
        // The original command and arguments as the file wrote them (placeholders and
        // escapes included), after the proxy's own.
        QByteArray newArgs = "[\"proxy\"";
        for (const QString &a : options.proxyArgs)
            newArgs += ", " + jsonStringText(a);
        newArgs += ", \"--\", " +
                   file.mid(command->value.start, command->value.end - command->value.start);
        for (const TextSpan &a : argSpans)
            newArgs += ", " + file.mid(a.start, a.end - a.start);
        newArgs += ']';
        if (args) {
            replacements.append({command->value, jsonStringText(options.sondeCli)});
            replacements.append({args->value, newArgs});
        } else {
            replacements.append(
                {command->value, jsonStringText(options.sondeCli) + ", \"args\": " + newArgs});
        }
    } else {
        edit.error = u"server \"%1\" has neither \"command\" nor \"url\""_s.arg(name);
        return edit;
    }
    std::sort(replacements.begin(), replacements.end(),
              [](const auto &a, const auto &b) { return a.first.start > b.first.start; });
    QByteArray out = file;
    qsizetype entryEnd = entry.end;
    for (const auto &[span, text] : replacements) {
        out.replace(span.start, span.end - span.start, text);
        entryEnd += text.size() - (span.end - span.start);
    }
    edit.original = file.mid(entry.start, entry.end - entry.start);
    edit.replaced = out.mid(entry.start, entryEnd - entry.start);
    edit.file = out;
    return edit;
}

ConfigWrapper::Edit ConfigWrapper::unwrap(const QByteArray &file, const QString &name,
                                          const QByteArray &original, const QByteArray &replaced)
{
    Edit edit;
    const LocatedServers l = locateServers(file);
    if (!l.error.isEmpty()) {
        edit.error = l.error;
        return edit;
    }
    const SpanMember *server = findMember(l.servers, name);
    if (!server) {
        edit.error = u"no server named \"%1\" any more"_s.arg(name);
        return edit;
    }
    const TextSpan entry = server->value;
    if (file.mid(entry.start, entry.end - entry.start) != replaced) {
        edit.error = u"server \"%1\" was changed since it was wrapped; restore it by hand "
                     "(the entry as it was is in the .sonde-wrap.json file)"_s.arg(name);
        return edit;
    }
    edit.file = file;
    edit.file.replace(entry.start, entry.end - entry.start, original);
    edit.original = replaced;
    edit.replaced = original;
    return edit;
}

namespace {
QString writeAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return u"%1: %2"_s.arg(path, f.errorString());
    return {};
}
QString readConfigFile(const QString &path, QByteArray *bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return u"%1: %2"_s.arg(path, f.errorString());
    if (f.size() > JsoncReader::MaxInputBytes)
        return u"%1: over the %2 MiB a config file may have"_s.arg(path).arg(
            JsoncReader::MaxInputBytes >> 20);
    *bytes = f.readAll();
    return {};
}
} // namespace

QString ConfigWrapper::wrapFile(const QString &path, const QString &name, const Options &options,
                                Edit *done)
{
    QByteArray file;
    if (QString e = readConfigFile(path, &file); !e.isEmpty())
        return e;
    Edit edit = wrap(file, name, options);
    if (!edit.error.isEmpty())
        return u"%1: %2"_s.arg(path, edit.error);
    QByteArray sidecarBytes;
    QJsonObject sidecar;
    if (QFile::exists(sidecarPath(path))) {
        if (QString e = readConfigFile(sidecarPath(path), &sidecarBytes); !e.isEmpty())
            return e;
        sidecar = QJsonDocument::fromJson(sidecarBytes).object();
    }
    QJsonObject entries = sidecar.value(u"entries"_s).toObject();
    entries.insert(name, QJsonObject{{u"original"_s, QString::fromUtf8(edit.original)},
                                     {u"wrapped"_s, QString::fromUtf8(edit.replaced)},
                                     {u"target"_s, edit.target}});
    sidecar.insert(u"entries"_s, entries);
    sidecar.insert(u"about"_s, u"sonde-cli proxy wrap: each entry as it was; sonde-cli proxy "
                               "unwrap puts it back"_s);
    // The backup first: whatever fails after it, the file as it was is on disk.
    for (const QString &e : {writeAtomically(backupPath(path), file),
                             writeAtomically(sidecarPath(path), QJsonDocument(sidecar).toJson()),
                             writeAtomically(path, edit.file)}) {
        if (!e.isEmpty())
            return e;
    }
    if (done)
        *done = edit;
    return {};
}

QString ConfigWrapper::unwrapFile(const QString &path, const QString &name, Edit *done)
{
    QByteArray file, sidecarBytes;
    if (QString e = readConfigFile(path, &file); !e.isEmpty())
        return e;
    if (!QFile::exists(sidecarPath(path)))
        return u"%1: nothing was wrapped here (no %2)"_s.arg(path, sidecarPath(path));
    if (QString e = readConfigFile(sidecarPath(path), &sidecarBytes); !e.isEmpty())
        return e;
    QJsonObject sidecar = QJsonDocument::fromJson(sidecarBytes).object();
    QJsonObject entries = sidecar.value(u"entries"_s).toObject();
    const QJsonObject kept = entries.value(name).toObject();
    if (kept.isEmpty())
        return u"%1: server \"%2\" was not wrapped by sonde-cli proxy wrap"_s.arg(path, name);
    Edit edit = unwrap(file, name, kept.value(u"original"_s).toString().toUtf8(),
                       kept.value(u"wrapped"_s).toString().toUtf8());
    if (!edit.error.isEmpty())
        return u"%1: %2"_s.arg(path, edit.error);
    if (QString e = writeAtomically(backupPath(path), file); !e.isEmpty())
        return e;
    if (QString e = writeAtomically(path, edit.file); !e.isEmpty())
        return e;
    entries.remove(name);
    if (entries.isEmpty()) {
        QFile::remove(sidecarPath(path));
    } else {
        sidecar.insert(u"entries"_s, entries);
        writeAtomically(sidecarPath(path), QJsonDocument(sidecar).toJson());
    }
    if (done)
        *done = edit;
    return {};
}

} // namespace Sonde

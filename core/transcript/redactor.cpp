// SPDX-License-Identifier: MIT
#include "transcript/redactor.h"

#include "config/serverconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QtAlgorithms>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString mask()
{
    return QString::fromLatin1(Redactor::Mask);
}

// What an unquoted value may hold. It stops at what ends a value in the places secrets are
// written: whitespace, quotes, a query's & or a list's , and ;, the brackets and parentheses
// around it (so "(token=abc)" keeps its closing parenthesis), and a backslash (the start of
// a JSON escape such as \n or \"). [ and ] also keep an already masked value from matching.
#define SONDE_UNQUOTED_VALUE u"[^\\s\"'&,;()\\[\\]{}<>\\\\]+"

// NAME<sep>value, with the quoting each place writes it in:
//   GITHUB_TOKEN=ghp_x   "api_key": "x"   {\"api_key\":\"x\"} (JSON inside a JSON string)
//   token='a b'          ?access_token=x&
// The name is checked in code (Redactor::isSecretName) rather than in the expression, so
// camelCase and separators are split once and the rule reads as a list of words.
// clang-format off (it does not settle on one layout for this expression's comments)
const QRegularExpression &assignmentPattern()
{
    static const QRegularExpression re(
        u"(?<![A-Za-z0-9_.])"
        "(?=[A-Za-z0-9_.-]{0,80}?(?i:token|secret|passw|passphrase|"
        "key|auth|sig|id|credential|code|verifier|assertion))" // cheap pre-check
        "([A-Za-z][A-Za-z0-9_.-]{0,80}+)"                      // 1 name
        "(\\\\?[\"']?)"                                     // 2 the quote that closes a quoted name
        "(\\s*[:=]\\s*)"                                    // 3 separator
        "(?:(\\\\\")((?:[^\\\\\"]|\\\\(?!\"))*)(?:\\\\\")?" // 4,5
                                                            // \"value\"
        "|(\")((?:[^\"\\\\]|\\\\.)*)\"?"                    // 6,7 "value"
        "|(')((?:[^'\"\\\\]|\\\\.)*)'?"                     // 8,9 'value'
        "|(" SONDE_UNQUOTED_VALUE "))"_s);                  // 10 value
    return re;
}
// clang-format on

// --name value on a command line (the starting event shows the server's command).
const QRegularExpression &flagPattern()
{
    static const QRegularExpression re(u"(?<![A-Za-z0-9_-])--?(?=[A-Za-z0-9_-]{0,80}?(?i:token|"
                                       u"secret|passw|passphrase|key|auth|sig|id|credential))"
                                       "([A-Za-z][A-Za-z0-9_-]{0,80}+)[ \\t]+"
                                       "(?:'([^']*)'|(?!-)(" SONDE_UNQUOTED_VALUE "))"_s);
    return re;
}

// The password in scheme://user:password@host.
const QRegularExpression &userInfoPattern()
{
    static const QRegularExpression re(
        u"\\b([A-Za-z][A-Za-z0-9+.-]*://[^\\s/?#@:\"'<>\\\\]*:)([^\\s/?#@\"'<>\\\\]+)(?=@)"_s);
    return re;
}

// A bearer token wherever it stands (a server's error text quotes it without the header).
const QRegularExpression &bearerPattern()
{
    // Not the auth-params of a challenge (RFC 6750 §3, RFC 9728 §5.1): "Bearer
    // resource_metadata=..." names where to look, it carries no credential.
    static const QRegularExpression re(u"\\b(Bearer\\s+)(?!(?:realm|scope|error|error_description|"
                                       u"error_uri|resource_metadata)\\s*=)[A-Za-z0-9._~+/=-]+"_s,
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

// Authorization: <scheme> <credential>, or a bare credential. The scheme is taken
// possessively so that "Bearer" itself is never taken for the value.
const QRegularExpression &authorizationPattern()
{
    static const QRegularExpression re(u"\\b(authorization(?:\\\\?[\"'])?\\s*[:=]\\s*(?:\\\\?[\"'])"
                                       u"?\\s*(?:(?:bearer|basic|digest|token|apikey)\\s+)?+)"
                                       "(" SONDE_UNQUOTED_VALUE ")"_s,
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

// Token formats that say what they are, wherever they stand: OpenAI/Anthropic (sk-),
// GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), Slack (xoxb- ...),
// AWS access key ids, Google API keys and JSON Web Tokens.
const QRegularExpression &tokenFormatPattern()
{
    static const QRegularExpression re(
        u"\\b(?:sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-"
        u"[A-Za-z0-9_-]{20,}"
        "|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}\\b|AIza[0-9A-Za-z_-]{35}"
        "|eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,})"_s);
    return re;
}

#undef SONDE_UNQUOTED_VALUE

// Replaces, in every match of `re`, the first capture group of `groups` that matched, when
// `keep` says so; everything else is copied as it was. A match that is not kept is searched
// again from its second character: `"text":"{\"api_key\":\"x\"}"` matches as text=...
// first, and the secret is inside that value.
template <typename Keep>
QString replaceGroups(const QString &text, const QRegularExpression &re,
                      std::initializer_list<int> groups, Keep keep)
{
    QString out;
    qsizetype copied = 0;
    qsizetype from = 0;
    while (from < text.size()) {
        const QRegularExpressionMatch m = re.match(text, from);
        if (!m.hasMatch())
            break;
        from = m.capturedStart(0) + 1;
        if (!keep(m))
            continue;
        for (int g : groups) {
            if (m.capturedStart(g) < 0)
                continue;
            out += QStringView(text).mid(copied, m.capturedStart(g) - copied);
            out += mask();
            copied = m.capturedEnd(g);
            from = std::max(from, copied);
            break;
        }
    }
    if (copied == 0)
        return text;
    out += QStringView(text).mid(copied);
    return out;
}

QStringList nameParts(const QString &name)
{
    QStringList parts;
    QString part;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (c == u'_' || c == u'-' || c == u'.') {
            if (!part.isEmpty())
                parts.append(std::exchange(part, {}));
            continue;
        }
        // camelCase: apiKey, accessToken, sessionId
        if (c.isUpper() && i > 0 && (name.at(i - 1).isLower() || name.at(i - 1).isDigit()) &&
            !part.isEmpty())
            parts.append(std::exchange(part, {}));
        part += c.toLower();
    }
    if (!part.isEmpty())
        parts.append(part);
    return parts;
}

// A JSON string's body as QJsonDocument writes it (the transcript is JSON Lines).
QString jsonEscaped(const QString &value)
{
    const QByteArray doc = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(doc.mid(2, doc.size() - 4)); // strip ["  "]
}

// OAuth's authorization code is named just "code", which elsewhere is data (a tool's code
// argument, an exit code): it is masked where OAuth writes it, as a query or form parameter
// (after ? or &, or opening a form body) and in a message that is plainly a token request.
bool isOAuthCode(const QString &subject, const QRegularExpressionMatch &m)
{
    if (m.captured(1) != "code"_L1)
        return false;
    const qsizetype at = m.capturedStart(1);
    const QChar before = at > 0 ? subject.at(at - 1) : QChar();
    if (m.captured(3).trimmed() == "="_L1 && (at == 0 || before == u'?' || before == u'&'))
        return true;
    return subject.contains("grant_type"_L1) || subject.contains("code_verifier"_L1);
}

} // namespace

bool Redactor::isSecretName(const QString &name)
{
    const QStringList parts = nameParts(name);
    if (parts.isEmpty())
        return false;
    const QString last = parts.last();
    const QString before = parts.size() > 1 ? parts.at(parts.size() - 2) : QString();
    // "pwd" is left out on purpose: PWD is the working directory. "key" alone is too: a
    // key-value server's {"key": "user"} is data, and masking it would hide what was asked.
    static const QSet<QString> secretWords = {
        u"token"_s,    u"secret"_s,     u"password"_s,    u"passwd"_s,    u"passphrase"_s,
        u"apikey"_s,   u"credential"_s, u"credentials"_s, u"auth"_s,      u"signature"_s,
        u"sig"_s,      u"sessionid"_s,  u"privatekey"_s,  u"accesskey"_s, u"secretkey"_s,
        u"verifier"_s, u"assertion"_s}; // OAuth: code_verifier, client_assertion, assertion
    static const QSet<QString> keyKinds = {
        u"api"_s,     u"secret"_s, u"private"_s,    u"access"_s,  u"client"_s,
        u"signing"_s, u"master"_s, u"encryption"_s, u"license"_s, u"auth"_s};
    if (last == "token"_L1 && before == "progress"_L1)
        return false; // MCP's progressToken pairs notifications with a request; no secret
    if (secretWords.contains(last))
        return true;
    if (last == "key"_L1)
        return keyKinds.contains(before);
    if (last == "id"_L1)
        return before == "session"_L1;
    return false;
}

// A configured value is masked verbatim only when that is both safe and useful. A value
// shorter than 4 characters ("1", "on", "dev"), a number of fewer than 8 digits (a port, a
// count, a timeout) or a common settings word ("true", "debug", "production") turns up by
// chance all over a transcript, in JSON keys, method names and numbers: masking it there
// would mangle the record while protecting nothing, for such values are settings, not
// credentials. Under a secret name (API_KEY=abc) such a value is still caught by the
// NAME=value pattern where the name stands next to it.
bool Redactor::isWorthMaskingVerbatim(const QString &value)
{
    const QString v = value.trimmed();
    if (v.size() < 4)
        return false;
    if (v.size() < 8 && std::all_of(v.begin(), v.end(), [](QChar c) { return c.isDigit(); }))
        return false;
    static const QSet<QString> settingsWords = {
        u"true"_s,       u"false"_s,       u"null"_s,    u"none"_s,   u"undefined"_s, u"enabled"_s,
        u"disabled"_s,   u"enable"_s,      u"disable"_s, u"auto"_s,   u"always"_s,    u"never"_s,
        u"default"_s,    u"debug"_s,       u"info"_s,    u"warn"_s,   u"warning"_s,   u"error"_s,
        u"trace"_s,      u"verbose"_s,     u"quiet"_s,   u"silent"_s, u"test"_s,      u"prod"_s,
        u"production"_s, u"development"_s, u"staging"_s, u"local"_s,  u"localhost"_s, u"stdio"_s,
        u"http"_s,       u"https"_s,       u"json"_s,    u"text"_s,   u"utf-8"_s,     u"utf8"_s};
    if (settingsWords.contains(v.toLower()))
        return false;
    // A value inside the mask itself ("REDACTED") would be masked inside earlier masks.
    return !mask().contains(v);
}

void Redactor::addVerbatim(const QString &value)
{
    if (m_known.contains(value))
        return;
    m_known.append(value);
    // The forms the value takes where it is written down: raw (stderr, error text), in a
    // JSON string (every transcript line), single-quoted as ServerConfig::displayCommand
    // writes a value holding ' (the starting event), and percent-encoded (a URL).
    QString shellQuoted = value;
    shellQuoted.replace(u'\'', u"'\\''"_s);
    const QStringList forms = {value, jsonEscaped(value), shellQuoted, jsonEscaped(shellQuoted),
                               QString::fromLatin1(QUrl::toPercentEncoding(value))};
    for (const QString &form : forms)
        if (!form.isEmpty() && !m_variants.contains(form))
            m_variants.append(form);
    // Longest first: a value that holds another known value is masked as a whole.
    std::stable_sort(m_variants.begin(), m_variants.end(),
                     [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

void Redactor::addSecret(const QString &value)
{
    if (isWorthMaskingVerbatim(value))
        addVerbatim(value);
}

void Redactor::addSessionId(const QString &id)
{
    // Ids are random, so no word list; the length floor only keeps a test's "s1" from
    // masking every "s1" in a file.
    if (id.size() >= 4)
        addVerbatim(id);
}

void Redactor::addSecrets(const ServerConfig &config)
{
    for (auto it = config.environment.begin(); it != config.environment.end(); ++it)
        addSecret(it.value());
    // Headers a user sets to negotiate, not to authenticate; every other configured header
    // is taken for a credential (Authorization, X-API-Key, Cookie, a vendor's own...).
    static const QSet<QByteArray> plainHeaders = {
        "accept",     "accept-language", "accept-encoding", "content-type",
        "user-agent", "cache-control",   "connection",      "mcp-protocol-version"};
    for (const auto &[name, value] : config.headers) {
        if (plainHeaders.contains(name.trimmed().toLower()))
            continue;
        const QString v = QString::fromUtf8(value).trimmed();
        addSecret(v);
        // "Bearer abc": the credential alone turns up too (in a server's own error text).
        const qsizetype space = v.indexOf(u' ');
        if (space > 0)
            addSecret(v.mid(space + 1).trimmed());
    }
    addSecret(config.url.password(QUrl::FullyDecoded));
}

// A necessary condition of every pattern rule, found in one pass over the text: a text that
// meets none comes out of the rules as it went in, so apply() skips their regular expressions
// (three or more per string, on every string of every recorded event).
// - a bearer credential: "bearer" in any case;
// - a token format: its prefix (case matters there; "gh" stands for gh?_ and github_pat_);
// - a URL's password: "://" and an @;
// - NAME=value, "name": value, Authorization: x need a separator, --name value a dash and a
//   blank; each needs a secret word in the name (the expressions' lookaheads), and a name is
//   ASCII, so an ASCII comparison is enough.
// QStringView::startsWith, for an ASCII word and without its Unicode case folding: this is
// called at most characters of every recorded string.
static bool startsWithAscii(QStringView text, QLatin1StringView word, bool anyCase)
{
    if (text.size() < word.size())
        return false;
    for (qsizetype i = 0; i < word.size(); ++i) {
        char16_t c = text[i].unicode();
        if (anyCase && c >= u'A' && c <= u'Z')
            c = char16_t(c | 0x20);
        if (c != char16_t(uchar(word[i].toLatin1())))
            return false;
    }
    return true;
}

static bool mayMatchPattern(QStringView text)
{
    static constexpr QLatin1StringView secretWords[] = {
        "token"_L1, "secret"_L1, "passw"_L1,      "passphrase"_L1, "key"_L1,      "auth"_L1,
        "sig"_L1,   "id"_L1,     "credential"_L1, "code"_L1,       "verifier"_L1, "assertion"_L1};
    static constexpr QLatin1StringView tokenPrefixes[] = {
        "sk-"_L1, "gh"_L1, "glpat-"_L1, "xox"_L1, "AKIA"_L1, "AIza"_L1, "eyJ"_L1, "://"_L1};
    // For each ASCII character, which prefixes and which secret words (any case) start with
    // it: most characters start none and are passed over after one look-up, and the others
    // compare only the words of their own letter (every word at every letter of a line was a
    // tenth of what recording a frame cost).
    // One look-up per character: the punctuation the rules need (bits 0 to 3), and whether a
    // prefix or a word may start there (bit 4).
    enum : quint8
    {
        Separator = 1,
        Dash = 2,
        Blank = 4,
        At = 8,
        Candidate = 16
    };
    struct Starts
    {
        std::array<quint8, 128> kind{};
        std::array<quint8, 128> prefixes{};
        std::array<quint16, 128> words{};
        std::array<bool, 128> bearer{};
    };
    static const Starts starts = [] {
        Starts t;
        for (size_t k = 0; k < std::size(tokenPrefixes); ++k)
            t.prefixes[uchar(tokenPrefixes[k].front().toLatin1())] |= quint8(1u << k);
        for (size_t k = 0; k < std::size(secretWords); ++k) {
            const char first = secretWords[k].front().toLatin1();
            t.words[uchar(first)] |= quint16(1u << k);
            t.words[uchar(QChar::fromLatin1(first).toUpper().toLatin1())] |= quint16(1u << k);
        }
        t.bearer['b'] = t.bearer['B'] = true;
        for (int c = 0; c < 128; ++c)
            if (t.prefixes[c] != 0 || t.words[c] != 0 || t.bearer[c])
                t.kind[c] |= Candidate;
        t.kind[':'] |= Separator;
        t.kind['='] |= Separator;
        t.kind['-'] |= Dash;
        t.kind[' '] |= Blank;
        t.kind['\t'] |= Blank;
        t.kind['@'] |= At;
        return t;
    }();
    static_assert(std::size(tokenPrefixes) <= 8 && std::size(secretWords) <= 16);
    quint8 seen = 0;
    bool scheme = false, secretWord = false;
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = text[i].unicode();
        if (c >= 128)
            continue;
        const quint8 kind = starts.kind[c];
        seen |= kind;
        if (!(kind & Candidate))
            continue;
        const quint8 prefixes = starts.prefixes[c];
        const quint16 words = secretWord ? 0 : starts.words[c];
        const QStringView rest = text.sliced(i);
        for (uint left = prefixes; left != 0; left &= left - 1) {
            const QLatin1StringView prefix = tokenPrefixes[qCountTrailingZeroBits(left)];
            if (startsWithAscii(rest, prefix, false)) {
                if (prefix != "://"_L1)
                    return true;
                scheme = true;
            }
        }
        if (starts.bearer[c] && startsWithAscii(rest, "bearer"_L1, true))
            return true;
        for (uint left = words; left != 0 && !secretWord; left &= left - 1)
            secretWord = startsWithAscii(rest, secretWords[qCountTrailingZeroBits(left)], true);
    }
    const bool at = seen & At, separator = seen & Separator;
    const bool dash = seen & Dash, blank = seen & Blank;
    return (scheme && at) || (secretWord && (separator || (dash && blank)));
}

bool Redactor::mayHoldSecret(const QString &text) const
{
    for (const QString &v : m_variants)
        if (text.contains(v))
            return true;
    return mayMatchPattern(text);
}

static bool mayHoldSecretIn(const Redactor &r, const QJsonValue &v)
{
    if (v.isString())
        return r.mayHoldSecret(v.toString());
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        return std::any_of(a.begin(), a.end(),
                           [&r](const QJsonValue &e) { return mayHoldSecretIn(r, e); });
    }
    return v.isObject() && r.mayHoldSecret(v.toObject());
}

bool Redactor::mayHoldSecret(const QJsonObject &object) const
{
    for (auto it = object.begin(); it != object.end(); ++it)
        if (mayHoldSecretIn(*this, it.value()))
            return true;
    return false;
}

QString Redactor::apply(const QString &text) const
{
    if (!mayHoldSecret(text))
        return text;
    QString out = text;
    for (const QString &v : m_variants)
        out.replace(v, mask());

    // The contains() checks only spare a regular expression pass over every transcript line.
    if (out.contains("bearer"_L1, Qt::CaseInsensitive))
        out.replace(bearerPattern(), u"\\1"_s + mask());
    if (out.contains("authorization"_L1, Qt::CaseInsensitive))
        out = replaceGroups(out, authorizationPattern(), {2},
                            [](const QRegularExpressionMatch &) { return true; });
    out.replace(tokenFormatPattern(), mask());
    if (out.contains("://"_L1) && out.contains(u'@'))
        out = replaceGroups(out, userInfoPattern(), {2},
                            [](const QRegularExpressionMatch &) { return true; });
    const QString subject = out;
    out = replaceGroups(out, assignmentPattern(), {5, 7, 9, 10},
                        [&subject](const QRegularExpressionMatch &m) {
                            if (!isSecretName(m.captured(1)) && !isOAuthCode(subject, m))
                                return false;
                            // "token": 3, "session_id": null: a quoted key followed by an unquoted
                            // value is a JSON number, boolean or null, no secret, and masking it
                            // would break the JSON.
                            const bool quotedKey = m.captured(2).endsWith(u'"');
                            if (quotedKey && m.capturedStart(10) >= 0)
                                return false;
                            // In a JSON line, a " right after `token=` ends the string that holds
                            // it
                            // ({"line":"usage: token="}): what follows is JSON structure, not a
                            // quoted value.
                            if (!quotedKey && m.capturedStart(7) >= 0 && m.capturedLength(7) > 0 &&
                                u",:}]"_s.contains(m.captured(7).front()))
                                return false;
                            return true;
                        });
    out = replaceGroups(out, flagPattern(), {2, 3}, [](const QRegularExpressionMatch &m) {
        return isSecretName(m.captured(1));
    });
    return out;
}

static QJsonValue applyToValue(const Redactor &r, const QJsonValue &v)
{
    if (v.isString())
        return r.apply(v.toString());
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue &e : v.toArray())
            a.append(applyToValue(r, e));
        return a;
    }
    if (v.isObject())
        return r.apply(v.toObject());
    return v;
}

QJsonObject Redactor::apply(const QJsonObject &object) const
{
    // Most records hold nothing to mask: they are kept as they are, not rebuilt.
    if (!mayHoldSecret(object))
        return object;
    QJsonObject out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(it.key(), applyToValue(*this, it.value()));
    return out;
}

QString Redactor::redact(const QString &text, const QStringList &sessionIds)
{
    Redactor r;
    for (const QString &id : sessionIds)
        r.addSessionId(id);
    return r.apply(text);
}

} // namespace Sonde

// SPDX-License-Identifier: MIT
// Redactor: the pattern rules for secrets no configuration names, the configured values
// masked verbatim in every form they are written in, and which values are left alone.
#include "config/serverconfig.h"
#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"
#include "transcript/transcriptwriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

QString json(const char *text)
{
    return QString::fromUtf8(text);
}

} // namespace

class TestRedactor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void patternsMaskWhatNoConfigurationNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");

        QTest::newRow("a GitHub token in an env assignment is masked")
            << u"GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz /usr/bin/server"_s
            << u"GITHUB_TOKEN=[REDACTED] /usr/bin/server"_s;
        QTest::newRow("a NAME_TOKEN assignment of any format is masked")
            << u"SLACK_BOT_TOKEN=not-a-known-format server"_s
            << u"SLACK_BOT_TOKEN=[REDACTED] server"_s;
        QTest::newRow("a secret key with a prefix in its name is masked")
            << u"MY_SECRET_KEY=hunter22 node index.js"_s
            << u"MY_SECRET_KEY=[REDACTED] node index.js"_s;
        QTest::newRow("an X_API_KEY assignment is masked")
            << u"X_API_KEY=abc123def"_s << u"X_API_KEY=[REDACTED]"_s;
        QTest::newRow("an OPENAI_API_KEY assignment is masked")
            << u"OPENAI_API_KEY=proj-123456 OTHER=1"_s << u"OPENAI_API_KEY=[REDACTED] OTHER=1"_s;
        QTest::newRow("a single-quoted value is masked whole")
            << u"API_TOKEN='a b c' server"_s << u"API_TOKEN='[REDACTED]' server"_s;
        QTest::newRow("a JSON api_key value is masked though the quote sits before the colon")
            << json(JSON_TEXT({"api_key" : "abc123", "n" : 1}))
            << json(JSON_TEXT({"api_key" : "[REDACTED]", "n" : 1}));
        QTest::newRow("a camelCase JSON key is masked")
            << json(JSON_TEXT({"apiKey" : "abc123", "clientSecret" : "s3"}))
            << json(JSON_TEXT({"apiKey" : "[REDACTED]", "clientSecret" : "[REDACTED]"}));
        QTest::newRow("an escaped quote inside a masked JSON value does not end it")
            << json(JSON_TEXT({"password" : "a\"b", "x" : 1}))
            << json(JSON_TEXT({"password" : "[REDACTED]", "x" : 1}));
        QTest::newRow("JSON inside a JSON string is masked")
            << json(JSON_TEXT({"text" : "{\"api_key\":\"abc123\"}"}))
            << json(JSON_TEXT({"text" : "{\"api_key\":\"[REDACTED]\"}"}));
        QTest::newRow("a session id header is masked")
            << u"Mcp-Session-Id: 6f1c99ab"_s << u"Mcp-Session-Id: [REDACTED]"_s;
        QTest::newRow("a JSON session_id is masked")
            << json(JSON_TEXT({"session_id" : "6f1c99ab"}))
            << json(JSON_TEXT({"session_id" : "[REDACTED]"}));
        QTest::newRow("a password in a URL is masked")
            << u"postgres://alice:s3cr3t@db.example.com/app"_s
            << u"postgres://alice:[REDACTED]@db.example.com/app"_s;
        QTest::newRow("a port in a URL is not a password")
            << u"POST http://127.0.0.1:8080/mcp failed"_s
            << u"POST http://127.0.0.1:8080/mcp failed"_s;
        QTest::newRow("a closing parenthesis after a key survives")
            << u"(token=abc123)"_s << u"(token=[REDACTED])"_s;
        QTest::newRow("a closing bracket after a key survives")
            << u"[password=abc]"_s << u"[password=[REDACTED]]"_s;
        QTest::newRow("token= in a query string keeps the other parameters")
            << u"http://x/?token=s3cr3t&a=1"_s << u"http://x/?token=[REDACTED]&a=1"_s;
        QTest::newRow("an access_token query parameter is masked, and the code beside it")
            << u"http://x/cb?code=1&access_token=abc.def"_s
            << u"http://x/cb?code=[REDACTED]&access_token=[REDACTED]"_s;
        QTest::newRow("a password assignment is masked")
            << u"password: hunter2"_s << u"password: [REDACTED]"_s;
        QTest::newRow("a bearer token is masked")
            << u"Authorization: Bearer abc.def-123"_s << u"Authorization: Bearer [REDACTED]"_s;
        QTest::newRow("a basic credential is masked")
            << u"Authorization: Basic dXNlcjpwYXNz"_s << u"Authorization: Basic [REDACTED]"_s;
        QTest::newRow("an sk- key is masked anywhere")
            << u"key sk-abcdefghijkl used"_s << u"key [REDACTED] used"_s;
        QTest::newRow("a GitHub token is masked in free text")
            << u"using ghp_0123456789abcdefghijklmnopqrstuvwxyz now"_s << u"using [REDACTED] now"_s;
        QTest::newRow("a JSON Web Token is masked")
            << u"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok"_s
            << u"jwt [REDACTED] ok"_s;
        QTest::newRow("a secret flag's value is masked")
            << u"server --api-key abc123 --verbose"_s << u"server --api-key [REDACTED] --verbose"_s;
        QTest::newRow("a secret flag with = is masked")
            << u"server --token=abc123"_s << u"server --token=[REDACTED]"_s;
        QTest::newRow("an escaped newline ends an unquoted value")
            << json(JSON_TEXT({"line" : "token=abc\nnext"}))
            << json(JSON_TEXT({"line" : "token=[REDACTED]\nnext"}));

        // What must stay as it is.
        QTest::newRow("plain text is untouched")
            << u"Tool failed to execute"_s << u"Tool failed to execute"_s;
        QTest::newRow("a JSON number or null under a secret name stays valid JSON")
            << json(JSON_TEXT({"token" : 3, "secret" : null}))
            << json(JSON_TEXT({"token" : 3, "secret" : null}));
        QTest::newRow("a line that ends right after token= stays valid JSON")
            << json(JSON_TEXT({"line" : "usage: token=", "n" : 1}))
            << json(JSON_TEXT({"line" : "usage: token=", "n" : 1}));
        QTest::newRow("an MCP progress token is not a secret")
            << json(JSON_TEXT({"_meta" : {"progressToken" : "sonde-3"}}))
            << json(JSON_TEXT({"_meta" : {"progressToken" : "sonde-3"}}));
        QTest::newRow("maxTokens is not a secret")
            << json(JSON_TEXT({"maxTokens" : "100"})) << json(JSON_TEXT({"maxTokens" : "100"}));
        QTest::newRow("a key-value server's key is data")
            << json(JSON_TEXT({"key" : "user"})) << json(JSON_TEXT({"key" : "user"}));
        QTest::newRow("PWD is the working directory, not a password")
            << u"PWD=/home/me"_s << u"PWD=/home/me"_s;
        QTest::newRow("a word ending in sk- is no key")
            << u"task-abcdefghijkl"_s << u"task-abcdefghijkl"_s;
        QTest::newRow("basic without an Authorization header is prose")
            << u"Basic authentication failed"_s << u"Basic authentication failed"_s;
    }
    void patternsMaskWhatNoConfigurationNames()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(Redactor::redact(text), expected);
    }

    // One column: the text as written, "<s>" where a secret stands. The input has a sample
    // value there, the expected output the mask; a row without "<s>" must come out unchanged.
    void oauthSecretsAreMaskedWhereOAuthWritesThem_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a token response's access, refresh and id tokens are masked")
            << json(JSON_TEXT({
                   "access_token" : "<s>",
                   "token_type" : "Bearer",
                   "refresh_token" : "<s>",
                   "id_token" : "<s>"
               }));
        QTest::newRow("a token request form body masks the code and the verifier")
            << u"grant_type=authorization_code&code=<s>&redirect_uri=http%3A%2F%2F127.0.0.1%3A4242%2Fcallback&code_verifier=<s>&client_id=sonde"_s;
        QTest::newRow("a form body that starts with the code masks it")
            << u"code=<s>&grant_type=authorization_code"_s;
        QTest::newRow("the code in a redirect's query is masked and the state kept")
            << u"GET http://127.0.0.1:4242/callback?code=<s>&state=st-0a1b&iss=https%3A%2F%2Fas.example"_s;
        QTest::newRow("the code in a redirect inside a JSON transcript line is masked")
            << json(JSON_TEXT({"location" : "http://127.0.0.1:4242/cb?code=<s>&state=s"}));
        QTest::newRow("a client secret in a form body is masked and the client id kept")
            << u"client_id=sonde-cli&client_secret=<s>"_s;
        QTest::newRow("a client assertion in a form body is masked")
            << u"client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=<s>"_s;
        QTest::newRow("a jwt-bearer grant's assertion is masked")
            << u"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=<s>"_s;
        QTest::newRow("a JSON token request masks its code and verifier") << json(JSON_TEXT(
            {"grant_type" : "authorization_code", "code" : "<s>", "code_verifier" : "<s>"}));
        QTest::newRow("a camelCase code verifier is masked")
            << json(JSON_TEXT({"codeVerifier" : "<s>"}));
        QTest::newRow("a Basic client authentication header is masked")
            << u"authorization: basic <s>"_s;
        QTest::newRow("a JSON-RPC error code is a number, not a secret")
            << json(JSON_TEXT({"error" : {"code" : -32600, "message" : "bad"}}));
        QTest::newRow("a tool's code argument is data outside an OAuth message")
            << json(JSON_TEXT({"name" : "run", "arguments" : {"code" : "print(1)"}}));
        QTest::newRow("an exit code in prose is left alone") << u"the server exited with code=3"_s;
        QTest::newRow("a Bearer challenge's parameters are no token")
            << u"Bearer resource_metadata=\"http://127.0.0.1:4242/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:read\""_s;
        QTest::newRow("a Bearer challenge with an error keeps its words")
            << u"Bearer error=\"insufficient_scope\", scope=\"mcp:read mcp:write\""_s;
        QTest::newRow("a bearer token is masked even where a challenge could be")
            << u"Authorization: Bearer <s>"_s;
        QTest::newRow("a step's client authentication method is no secret")
            << u"registered as a native client; client authentication at the token endpoint: client_secret_basic"_s;
        QTest::newRow("the PKCE challenge in an authorize URL is no secret")
            << u"https://as.example/authorize?response_type=code&code_challenge=E9Melhoa2Ow&code_challenge_method=S256"_s;
    }
    void oauthSecretsAreMaskedWhereOAuthWritesThem()
    {
        QFETCH(QString, text);
        QString input = text;
        input.replace(u"<s>"_s, u"c29uZGU6Y3MtNGE1YjZj"_s);
        QString expected = text;
        expected.replace(u"<s>"_s, QString::fromLatin1(Redactor::Mask));
        QCOMPARE(Redactor::redact(input), expected);
    }

    void knownValuesAreMaskedVerbatim_data()
    {
        QTest::addColumn<QStringList>("secrets");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");

        QTest::newRow("a configured value is masked wherever it appears")
            << QStringList{u"opaque-value-1234"_s}
            << u"got opaque-value-1234 and opaque-value-1234."_s
            << u"got [REDACTED] and [REDACTED]."_s;
        QTest::newRow("a configured value under a harmless name is masked in the command")
            << QStringList{u"postgres://u:pw@db/app"_s}
            << u"DATABASE_URL=postgres://u:pw@db/app server"_s
            << u"DATABASE_URL=[REDACTED] server"_s;
        QTest::newRow("a configured value is masked in its JSON-escaped form")
            << QStringList{u"pa\"ss\\word"_s} << json(JSON_TEXT({"line" : "pa\"ss\\word"}))
            << json(JSON_TEXT({"line" : "[REDACTED]"}));
        QTest::newRow("a configured value holding a quote is masked as the command shows it")
            << QStringList{u"it's-secret"_s} << u"K='it'\\''s-secret' prog"_s
            << u"K='[REDACTED]' prog"_s;
        QTest::newRow("a configured value is masked percent-encoded in a URL")
            << QStringList{u"a b&c=d"_s} << u"http://x/?q=a%20b%26c%3Dd"_s
            << u"http://x/?q=[REDACTED]"_s;
        QTest::newRow("a value holding another known value is masked whole")
            << QStringList{u"abcd1234"_s, u"abcd1234efgh5678"_s} << u"[abcd1234efgh5678]"_s
            << u"[[REDACTED]]"_s;
        QTest::newRow("a value shorter than 4 characters is not masked verbatim")
            << QStringList{u"abc"_s} << u"abc abcdef"_s << u"abc abcdef"_s;
        QTest::newRow("a common setting word is not masked verbatim")
            << QStringList{u"true"_s, u"debug"_s}
            << json(JSON_TEXT({"isError" : true, "level" : "debug"}))
            << json(JSON_TEXT({"isError" : true, "level" : "debug"}));
        QTest::newRow("a port number is not masked verbatim")
            << QStringList{u"8080"_s} << u"http://127.0.0.1:8080/mcp"_s
            << u"http://127.0.0.1:8080/mcp"_s;
    }
    void knownValuesAreMaskedVerbatim()
    {
        QFETCH(QStringList, secrets);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        Redactor r;
        for (const QString &s : secrets)
            r.addSecret(s);
        QCOMPARE(r.apply(text), expected);
    }

    void whichValuesAreWorthMaskingVerbatim_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("masked");
        QTest::newRow("a token is") << u"ghp_0123456789abcdef"_s << true;
        QTest::newRow("a four-character password is") << u"h4x!"_s << true;
        QTest::newRow("a path is") << u"/srv/data/memory.json"_s << true;
        QTest::newRow("a long number is") << u"123456789012"_s << true;
        QTest::newRow("an empty value is not") << QString() << false;
        QTest::newRow("\"1\" is not") << u"1"_s << false;
        QTest::newRow("\"true\" is not") << u"true"_s << false;
        QTest::newRow("\"False\" is not, whatever its case") << u"False"_s << false;
        QTest::newRow("a log level is not") << u"warning"_s << false;
        QTest::newRow("an environment name is not") << u"production"_s << false;
        QTest::newRow("a port is not") << u"3000"_s << false;
        QTest::newRow("part of the mask is not") << u"REDACTED"_s << false;
    }
    void whichValuesAreWorthMaskingVerbatim()
    {
        QFETCH(QString, value);
        QFETCH(bool, masked);
        QCOMPARE(Redactor::isWorthMaskingVerbatim(value), masked);
    }

    void aServersConfiguredSecretsAreKnown()
    {
        ServerConfig c;
        c.environment = {{u"GITHUB_TOKEN"_s, u"ghp_0123456789abcdef"_s},
                         {u"MEMORY_FILE"_s, u"/srv/data/memory.json"_s},
                         {u"LOG_LEVEL"_s, u"debug"_s},
                         {u"RETRIES"_s, u"3"_s}};
        c.headers = {{"Authorization", "Bearer tok-abc-123"},
                     {"X-Custom-Auth", "custom-credential-77"},
                     {"Accept", "application/json"}};
        c.url = QUrl(u"https://alice:url-password-9@example.com/mcp"_s);
        Redactor r;
        r.addSecrets(c);
        const QStringList known = r.knownValues();
        for (const QString &v :
             {u"ghp_0123456789abcdef"_s, u"/srv/data/memory.json"_s, u"Bearer tok-abc-123"_s,
              u"tok-abc-123"_s, u"custom-credential-77"_s, u"url-password-9"_s})
            QVERIFY2(known.contains(v), qPrintable(v));
        for (const QString &v : {u"debug"_s, u"3"_s, u"application/json"_s})
            QVERIFY2(!known.contains(v), qPrintable(v));
        QCOMPARE(r.apply(u"the server said: bad credential tok-abc-123"_s),
                 u"the server said: bad credential [REDACTED]"_s);
    }

    void jsonDocumentsStayValidAndKeepTheirKeys()
    {
        Redactor r;
        r.addSecret(u"opaque-value-1234"_s);
        const QJsonObject in{
            {"url"_L1, u"http://127.0.0.1:1/mcp"_s},
            {"last_error"_L1, QJsonObject{{"message"_L1, u"rejected opaque-value-1234"_s}}},
            {"list"_L1, QJsonArray{u"opaque-value-1234"_s, 3}},
            {"opaque-value-1234"_L1, true}};
        const QJsonObject out = r.apply(in);
        QCOMPARE(out.value("url"_L1), in.value("url"_L1));
        QCOMPARE(out.value("last_error"_L1).toObject().value("message"_L1).toString(),
                 u"rejected [REDACTED]"_s);
        QCOMPARE(out.value("list"_L1).toArray(), (QJsonArray{u"[REDACTED]"_s, 3}));
        QVERIFY(out.contains("opaque-value-1234"_L1));
    }

    // The starting event carries ServerConfig::displayCommand, which wrote every env value
    // into "redacted" transcripts.
    void theStartingEventWrittenToATranscriptHoldsNoConfiguredValue()
    {
        ServerConfig c;
        c.name = u"gh"_s;
        c.program = u"/usr/bin/github-mcp-server"_s;
        c.arguments = {u"stdio"_s};
        c.environment = {
            {u"GITHUB_PERSONAL_ACCESS_TOKEN"_s, u"ghp_0123456789abcdefghijklmnopqrstuvwxyz"_s},
            {u"DB_URL"_s, u"postgres://u:p@ss w0rd@db/app"_s},
            {u"PASSPHRASE_FILE"_s, u"/run/secrets/it's-here"_s}};
        TranscriptEvent e;
        e.server = c.name;
        e.event = u"starting"_s;
        e.details = std::make_shared<const LifecycleDetails>(
            LifecycleDetails::Starting{.route = c.routeName(), .command = c.displayCommand()});

        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        TranscriptWriter writer;
        QString why;
        QVERIFY2(writer.open(path, &why), qPrintable(why));
        writer.addSecrets(c);
        writer.write({e});
        writer.flush();
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray line = f.readAll().trimmed();
        for (const QString &v : c.environment)
            QVERIFY2(!line.contains(v.toUtf8()), line.constData());
        QVERIFY2(!line.contains("ghp_"), line.constData());
        QVERIFY2(!line.contains("w0rd"), line.constData());
        QVERIFY2(!line.contains("here"), line.constData());
        const QJsonObject back = QJsonDocument::fromJson(line).object();
        const QString command = back.value("details"_L1).toObject().value("command"_L1).toString();
        QVERIFY2(command.contains(u"GITHUB_PERSONAL_ACCESS_TOKEN=[REDACTED]"_s),
                 qPrintable(command));
        QVERIFY2(command.endsWith(u"/usr/bin/github-mcp-server stdio"_s), qPrintable(command));
    }
};

QTEST_APPLESS_MAIN(TestRedactor)
#include "tst_redactor.moc"

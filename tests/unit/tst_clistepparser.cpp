// SPDX-License-Identifier: MIT
// sonde-cli's two ways into a step: its command words and an exec line say the same request
// as the same CliStep, and each refuses what it cannot run in sonde-cli's own words.
#include "clistepparser.h"

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::CliStep)

namespace {

// An exec line written with single quotes, to keep the rows readable (and because moc
// loses its way in raw string literals): {'op':'ping'}.
std::optional<CliStep> fromLine(QByteArray line, QString *error)
{
    return CliStepParser::fromJson(QJsonDocument::fromJson(line.replace('\'', '"')).object(),
                                   error);
}

// What was made instead, for a failure message: the kind (the variant's alternatives in
// order) or the refusal.
QByteArray madeInstead(const std::optional<CliStep> &step, const QString &error)
{
    return step ? QByteArray("kind ") + QByteArray::number(qsizetype(step->index()))
                : QByteArray("refused: ") + error.toUtf8();
}

} // namespace

class TestCliStepParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void wordsAndExecLinesMakeTheSameStep_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<CliStep>("step");
        QTest::newRow("a ping") << QStringList{u"ping"_s} << QByteArray("{'op':'ping'}")
                                << CliStep(PingStep{});
        QTest::newRow("the tools listed")
            << QStringList{u"tools"_s, u"list"_s} << QByteArray("{'op':'tools/list'}")
            << CliStep(ToolsListStep{});
        QTest::newRow("a tool called with its arguments")
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s}
            << QByteArray("{'op':'call','tool':'echo','args':{'message':'hi'}}")
            << CliStep(ToolCallStep{u"echo"_s, {{"message"_L1, "hi"_L1}}});
        QTest::newRow("a tool called without arguments sends an empty object")
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s}
            << QByteArray("{'op':'call','tool':'echo'}") << CliStep(ToolCallStep{u"echo"_s, {}});
        QTest::newRow("the resources listed")
            << QStringList{u"resources"_s, u"list"_s} << QByteArray("{'op':'resources/list'}")
            << CliStep(ResourcesListStep{});
        QTest::newRow("the resource templates listed")
            << QStringList{u"resources"_s, u"templates"_s}
            << QByteArray("{'op':'resources/templates/list'}")
            << CliStep(ResourceTemplatesListStep{});
        QTest::newRow("a resource read by its URI")
            << QStringList{u"resources"_s, u"read"_s, u"demo://counter"_s}
            << QByteArray("{'op':'resources/read','uri':'demo://counter'}")
            << CliStep(ResourceReadStep{u"demo://counter"_s});
        QTest::newRow("the prompts listed")
            << QStringList{u"prompts"_s, u"list"_s} << QByteArray("{'op':'prompts/list'}")
            << CliStep(PromptsListStep{});
        QTest::newRow("a prompt got with its arguments")
            << QStringList{u"prompts"_s, u"get"_s, u"greet"_s, u"{\"name\":\"Ada\"}"_s}
            << QByteArray("{'op':'prompts/get','name':'greet','args':{'name':'Ada'}}")
            << CliStep(PromptGetStep{u"greet"_s, {{"name"_L1, "Ada"_L1}}});
        QTest::newRow("a prompt got without arguments")
            << QStringList{u"prompts"_s, u"get"_s, u"greet"_s}
            << QByteArray("{'op':'prompts/get','name':'greet'}")
            << CliStep(PromptGetStep{u"greet"_s, {}});
    }
    void wordsAndExecLinesMakeTheSameStep()
    {
        QFETCH(QStringList, words);
        QFETCH(QByteArray, line);
        QFETCH(CliStep, step);
        QString wordError, lineError;
        const std::optional<CliStep> fromWords = CliStepParser::fromWords(words, &wordError);
        const std::optional<CliStep> fromJson = fromLine(line, &lineError);
        QVERIFY2(fromWords == step, madeInstead(fromWords, wordError).constData());
        QVERIFY2(fromJson == step, madeInstead(fromJson, lineError).constData());
    }

    void stepsOnlyExecHas_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<CliStep>("step");
        QTest::newRow("a completion with a context")
            << QByteArray("{'op':'complete','ref':{'type':'ref/prompt'},'argument':{'name':'n'},"
                          "'context':{'arguments':{}}}")
            << CliStep(CompleteStep{{{"type"_L1, "ref/prompt"_L1}},
                                    {{"name"_L1, "n"_L1}},
                                    QJsonObject{{"arguments"_L1, QJsonObject()}}});
        QTest::newRow("a completion without a context sends none")
            << QByteArray("{'op':'complete'}") << CliStep(CompleteStep{{}, {}, std::nullopt});
        QTest::newRow("a log level left out is info")
            << QByteArray("{'op':'logging/setLevel'}") << CliStep(SetLogLevelStep{u"info"_s});
        QTest::newRow("any request, as given")
            << QByteArray("{'op':'request','method':'x/y','params':{'a':1}}")
            << CliStep(RequestStep{u"x/y"_s, {{"a"_L1, 1}}});
        QTest::newRow("a subscription")
            << QByteArray("{'op':'resources/subscribe','uri':'demo://counter'}")
            << CliStep(ResourceSubscribeStep{u"demo://counter"_s});
        QTest::newRow("an unsubscription")
            << QByteArray("{'op':'resources/unsubscribe','uri':'demo://counter'}")
            << CliStep(ResourceUnsubscribeStep{u"demo://counter"_s});
        QTest::newRow("a fault with its delay")
            << QByteArray("{'op':'fault','kind':'delay','ms':250}")
            << CliStep(FaultStep{Fault::Kind::Delay, 250, 0});
        QTest::newRow("a reconnect")
            << QByteArray("{'op':'reconnect'}") << CliStep(ReconnectStep{});
        QTest::newRow("a breaker action") << QByteArray("{'op':'breaker','action':'reset'}")
                                          << CliStep(BreakerStep{BreakerAction::Reset});
        QTest::newRow("a sleep longer than an hour is an hour")
            << QByteArray("{'op':'sleep','ms':99999999}") << CliStep(SleepStep{3'600'000});
        QTest::newRow("a negative sleep is none")
            << QByteArray("{'op':'sleep','ms':-5}") << CliStep(SleepStep{0});
        QTest::newRow("the notifications")
            << QByteArray("{'op':'notifications'}") << CliStep(NotificationsStep{});
        QTest::newRow("the state") << QByteArray("{'op':'state'}") << CliStep(StateStep{});
        QTest::newRow("a cancel of a step by its number")
            << QByteArray("{'op':'cancel','step':3}") << CliStep(CancelStep{3});
        QTest::newRow("a cancel is one even with members that are not objects")
            << QByteArray("{'op':'cancel','step':2,'args':[1]}") << CliStep(CancelStep{2});
    }
    void stepsOnlyExecHas()
    {
        QFETCH(QByteArray, line);
        QFETCH(CliStep, step);
        QString error;
        const std::optional<CliStep> got = fromLine(line, &error);
        QVERIFY2(got == step, madeInstead(got, error).constData());
    }

    void infoIsAStepOfTheWordsOnly()
    {
        QString error;
        QCOMPARE(CliStepParser::fromWords({u"info"_s}, &error), std::optional<CliStep>(InfoStep{}));
        QVERIFY(!fromLine("{'op':'info'}", &error));
        QCOMPARE(error, u"unknown op \"info\""_s);
    }

    void wordsAreRefused_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QString>("error");
        QTest::newRow("a ping with a word after it")
            << QStringList{u"ping"_s, u"now"_s}
            << u"\"ping\" takes nothing after it, got: ping now"_s;
        QTest::newRow("a list with a word after it")
            << QStringList{u"tools"_s, u"list"_s, u"all"_s}
            << u"\"tools list\" takes 0 word(s) after it, got: tools list all"_s;
        QTest::newRow("a tool call without a name")
            << QStringList{u"tools"_s, u"call"_s} << u"usage: tools call NAME [JSON]"_s;
        QTest::newRow("a prompt got with too many words")
            << QStringList{u"prompts"_s, u"get"_s, u"a"_s, u"{}"_s, u"b"_s}
            << u"usage: prompts get NAME [JSON]"_s;
        QTest::newRow("arguments that are not JSON")
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{"_s}
            << u"arguments must be a JSON object: unterminated object"_s;
        QTest::newRow("arguments that are an array")
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"[1]"_s}
            << u"arguments must be a JSON object, got another JSON type"_s;
        QTest::newRow("a resource read without a URI")
            << QStringList{u"resources"_s, u"read"_s} << u"usage: resources read URI"_s;
        QTest::newRow("a command sonde-cli does not have")
            << QStringList{u"dance"_s} << u"unknown command \"dance\""_s;
        QTest::newRow("a known verb without its second word")
            << QStringList{u"tools"_s} << u"incomplete or unknown command: tools"_s;
    }
    void wordsAreRefused()
    {
        QFETCH(QStringList, words);
        QFETCH(QString, error);
        QString said;
        QVERIFY(!CliStepParser::fromWords(words, &said));
        QCOMPARE(said, error);
    }

    void execLinesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::newRow("arguments that are an array")
            << QByteArray("{'op':'call','tool':'echo','args':[1]}")
            << u"\"args\" must be an object"_s;
        QTest::newRow("an unknown op with params that are not an object")
            << QByteArray("{'op':'bogus','params':7}") << u"\"params\" must be an object"_s;
        QTest::newRow("a call without a tool")
            << QByteArray("{'op':'call'}") << u"call needs \"tool\""_s;
        QTest::newRow("a read without a URI")
            << QByteArray("{'op':'resources/read'}") << u"resources/read needs \"uri\""_s;
        QTest::newRow("a prompt without a name")
            << QByteArray("{'op':'prompts/get'}") << u"prompts/get needs \"name\""_s;
        QTest::newRow("a request without a method")
            << QByteArray("{'op':'request'}") << u"request needs \"method\""_s;
        QTest::newRow("a fault of no known kind")
            << QByteArray("{'op':'fault','kind':'gremlins'}")
            << u"unknown fault kind \"gremlins\" (%1)"_s.arg(Fault::nameList());
        QTest::newRow("a breaker action that is neither reset nor trip")
            << QByteArray("{'op':'breaker','action':'open'}")
            << u"breaker action must be \"reset\" or \"trip\""_s;
        QTest::newRow("a cancel without a step")
            << QByteArray("{'op':'cancel'}")
            << u"cancel needs \"step\": the number of a step still running"_s;
        QTest::newRow("a cancel of step zero")
            << QByteArray("{'op':'cancel','step':0}")
            << u"cancel needs \"step\": the number of a step still running"_s;
        QTest::newRow("an op sonde-cli does not have")
            << QByteArray("{'op':'dance'}") << u"unknown op \"dance\""_s;
    }
    void execLinesAreRefused()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        QString said;
        QVERIFY(!fromLine(line, &said));
        QCOMPARE(said, error);
    }
};

QTEST_GUILESS_MAIN(TestCliStepParser)
#include "tst_clistepparser.moc"

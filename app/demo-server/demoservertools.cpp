// SPDX-License-Identifier: MIT
// DemoServer's tool table: each tool's definition next to what a call does, and the tools
// with timers (the slow task, the flood). Kept apart from demoserver.cpp (the dispatch) and
// demoserverrev20260728.cpp (2026-07-28) so no file passes 500 lines.
#include "demojson.h"
#include "demoserver.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace DemoJson;

// A 1x1 PNG, so the image path of a client is exercised without shipping a file.
static const char TinyPng[] = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAE"
                              "hQGAhKmMIQAAAABJRU5ErkJggg==";
const std::vector<DemoServer::Tool> &DemoServer::toolTable()
{
    if (m_tools.empty()) {
        defineTools();
        defineGeneratedTools(m_state->generatedTools());
        m_toolIndex.reserve(qsizetype(m_tools.size()));
        for (size_t i = 0; i < m_tools.size(); ++i)
            m_toolIndex.insert(m_tools[i].name, qsizetype(i));
    }
    return m_tools;
}

void DemoServer::defineTools()
{
    // One entry per tool, in tools/list order: its definition next to what it does.
    auto add = [this](const QString &name, const QString &description, const QJsonObject &input,
                      const QJsonObject &ann, const QJsonObject &output, ToolHandler handler) {
        QJsonObject tool{
            {"name"_L1, name}, {"description"_L1, description}, {"inputSchema"_L1, input}};
        if (!ann.isEmpty())
            tool.insert("annotations"_L1, ann);
        if (!output.isEmpty())
            tool.insert("outputSchema"_L1, output);
        m_tools.push_back({name, tool, std::move(handler)});
    };
    const QJsonObject none;
    add(u"get-counter"_s, u"Reads the counter (read-only)."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"counter = %1"_s.arg(m_state->counter())));
        });
    add(u"increment-counter"_s,
        u"Adds `by` to the counter: changes server state. With delay_ms, the counter moves at "
        u"once and the answer comes that much later (a write still running when its connection "
        u"fails)."_s,
        schema({{"by"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 1}}},
                {"delay_ms"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 0}}}}),
        annotations(false, false, false), none, [this](const ToolCall &c) { incrementCounter(c); });
    // counter-app's App calls it through the host: the model and Apps may both call it.
    {
        QJsonObject meta = m_tools.back().definition.value("_meta"_L1).toObject();
        QJsonObject ui = meta.value("ui"_L1).toObject();
        ui.insert("visibility"_L1, QJsonArray{"model"_L1, "app"_L1});
        meta.insert("ui"_L1, ui);
        m_tools.back().definition.insert("_meta"_L1, meta);
    }
    add(u"echo"_s, u"Echoes the message back. Carries no annotations on purpose."_s,
        schema({{"message"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}, {u"message"_s}), none, none,
        [this](const ToolCall &c) {
            if (!c.args.value("message"_L1).isString()) {
                respond(c.id, textResult(u"argument \"message\" (string) is required"_s, true));
                return;
            }
            respond(c.id, textResult(u"Echo: "_s + c.args.value("message"_L1).toString()));
        });
    add(u"slow-task"_s,
        u"Takes duration_ms, reporting progress in `steps` steps when asked; honours cancellation."_s,
        schema({{"duration_ms"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 2000}}},
                {"steps"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 5}}}}),
        annotations(true, false, true), none,
        [this](const ToolCall &c) { startSlowTask(c.id, c.args, c.token); });
    add(u"long-job"_s,
        u"Works for ms (default 1500). A 2026-07-28 client that follows the tasks extension "
        u"gets a task to poll; any other waits for the answer."_s,
        schema({{"ms"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 1500}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) { longJob(c); });
    add(u"fail"_s, u"Always fails with isError: true."_s,
        schema({{"reason"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"the demo tool failed: %1"_s.arg(
                                         c.args.value("reason"_L1).toString(u"as asked"_s)),
                                     true));
        });
    add(u"get-weather"_s, u"Structured output: a made-up forecast that matches outputSchema."_s,
        // The city is mirrored into the Mcp-Param-City header of a modern HTTP call.
        schema({{"city"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                        {"default"_L1, "Paris"_L1},
                                        {"x-mcp-header"_L1, "City"_L1}}}}),
        annotations(true, false, true),
        schema({{"city"_L1, QJsonObject{{"type"_L1, "string"_L1}}},
                {"temperature"_L1, QJsonObject{{"type"_L1, "number"_L1}}},
                {"conditions"_L1, QJsonObject{{"type"_L1, "string"_L1}}}},
               {u"city"_s, u"temperature"_s, u"conditions"_s}),
        [this](const ToolCall &c) { getWeather(c); });
    // An MCP App: _meta.ui.resourceUri names a ui:// page, served as a resource like any
    // other, and the answer stands alone for a host that shows no apps. The page shows
    // structuredContent.counter and calls increment-counter through the host.
    add(u"counter-app"_s,
        u"Reads the counter; an MCP App host also shows it in the page its _meta.ui.resourceUri "
        u"names, with a button that calls increment-counter."_s,
        schema({}), annotations(true, false, true),
        schema({{"counter"_L1, QJsonObject{{"type"_L1, "integer"_L1}}}}, {u"counter"_s}),
        [this](const ToolCall &c) {
            const QJsonObject structured{{"counter"_L1, m_state->counter()}};
            // The sentence first, then the same JSON as text (tools.mdx, Structured Content).
            respond(c.id,
                    {{"content"_L1,
                      QJsonArray{textContent(u"counter = %1"_s.arg(m_state->counter())),
                                 textContent(QString::fromUtf8(
                                     QJsonDocument(structured).toJson(QJsonDocument::Compact)))}},
                     {"structuredContent"_L1, structured}});
        });
    m_tools.back().definition.insert(
        "_meta"_L1, QJsonObject{{"ui"_L1, QJsonObject{{"resourceUri"_L1,
                                                       QString::fromLatin1(CounterAppUri)}}}});
    add(u"tiny-image"_s, u"Returns a 1x1 PNG as image content."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, {{"content"_L1,
                            QJsonArray{textContent(u"a 1x1 PNG:"_s),
                                       QJsonObject{{"type"_L1, "image"_L1},
                                                   {"data"_L1, QString::fromLatin1(TinyPng)},
                                                   {"mimeType"_L1, "image/png"_L1}}}}});
        });
    add(u"ask-user"_s, u"Asks the client for a name through form elicitation."_s, schema({}),
        annotations(true, false, false), none, [this](const ToolCall &c) { askUser(c); });
    add(u"ask-model"_s, u"Asks the client's model a question through sampling."_s,
        schema({{"question"_L1,
                 QJsonObject{{"type"_L1, "string"_L1}, {"default"_L1, "What is MCP?"_L1}}}}),
        annotations(true, false, false, true), none, [this](const ToolCall &c) { askModel(c); });
    add(u"list-roots"_s, u"Asks the client for its roots."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) { listRoots(c); });
    add(u"confirm-twice"_s,
        u"Asks the client to confirm twice through elicitation, one question after the other: "
        "in 2026-07-28, two input_required rounds."_s,
        schema({}), annotations(false, false, false), none,
        [this](const ToolCall &c) { confirmTwice(c); });
    add(u"toggle-extra-tool"_s,
        u"Adds or removes the tool extra-tool and sends tools/list_changed."_s, schema({}),
        annotations(false, false, false), none, [this](const ToolCall &c) {
            m_extraTool = !m_extraTool;
            // A legacy session hears it on its own streams; a modern request's stream carries
            // only what relates to it, so modern clients hear it through subscriptions/listen.
            if (!c.modern)
                notify(u"notifications/tools/list_changed"_s);
            publish(u"notifications/tools/list_changed"_s);
            respond(c.id,
                    textResult(m_extraTool ? u"extra-tool added"_s : u"extra-tool removed"_s));
        });
    // Not read-only: it breaks the stdio framing of the session on purpose, which is not
    // something a client may do unasked (the doctor calls read-only tools by itself).
    add(u"print-garbage"_s, u"Writes a line that is not JSON to stdout, then answers normally."_s,
        schema({}), annotations(false, false, true), none, [this](const ToolCall &c) {
            Q_EMIT frameReady("this line is not JSON: the demo server printed it on purpose",
                              m_related);
            respond(c.id, textResult(u"printed a non-JSON line before this answer"_s));
        });
    add(u"big-answer"_s, u"Answers with `bytes` bytes of text (at most 104857600)."_s,
        schema({{"bytes"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 1048576}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            const qint64 bytes =
                std::clamp<qint64>(c.args.value("bytes"_L1).toInteger(1048576), 0, 104857600);
            respond(c.id, textResult(QString(qsizetype(bytes), u'x')));
        });
    add(u"write-stderr"_s, u"Writes `lines` lines to stderr."_s,
        schema({{"lines"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 3}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            const int lines = std::clamp(c.args.value("lines"_L1).toInt(3), 0, 10000);
            for (int i = 1; i <= lines; ++i)
                Q_EMIT stderrLine(u"demo: stderr line %1 of %2"_s.arg(i).arg(lines));
            respond(c.id, textResult(u"wrote %1 stderr lines"_s.arg(lines)));
        });
    add(u"crash"_s, u"Exits the server process with code 3 without answering."_s, schema({}),
        annotations(false, true, false), none, [this](const ToolCall &) {
            Q_EMIT stderrLine(u"demo: crashing on purpose"_s);
            Q_EMIT exitRequested(3);
        });
    // Side effects under every kind of hint, for recovery tests: the same counter.
    const ToolHandler bump = [this](const ToolCall &c) {
        respond(c.id, textResult(u"counter = %1"_s.arg(m_state->add(1))));
    };
    add(u"bump-unannotated"_s, u"Adds 1 to the counter; carries no annotations."_s, schema({}),
        none, none, bump);
    {
        QJsonObject a = annotations(false, false, false);
        a.insert("readOnlyHint"_L1, "true"_L1); // a string, not the boolean: not read-only
        add(u"bump-string-true"_s,
            u"Adds 1 to the counter; its readOnlyHint is the string \"true\"."_s, schema({}), a,
            none, bump);
    }
    add(u"increment-then-expire"_s,
        u"Adds 1, then drops the session without answering (stdio: exits)."_s, schema({}),
        annotations(false, false, false), none, [this](const ToolCall &) {
            m_state->add(1);
            Q_EMIT stderrLine(
                u"demo: incremented to %1, now dropping the session without answering"_s.arg(
                    m_state->counter()));
            Q_EMIT sessionExpiryRequested();
        });
    add(u"increment-then-drop"_s,
        u"Adds 1, then closes the request's connection without a response byte; the session "
        "stays (stdio: exits). What a crash or a proxy timeout after a write looks like."_s,
        schema({}), annotations(false, false, false), none, [this](const ToolCall &) {
            m_state->add(1);
            Q_EMIT stderrLine(
                u"demo: incremented to %1, now dropping the connection without answering"_s.arg(
                    m_state->counter()));
            Q_EMIT connectionDropRequested();
        });
    add(u"admin-expire-session"_s,
        u"Answers, then drops this session (stdio: exits): the next request meets an expired session."_s,
        schema({}), annotations(false, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"this session ends now"_s));
            Q_EMIT sessionExpiryRequested();
        });
    add(u"flood"_s,
        u"Sends `rate` notifications/message per second (at most 100000) for `seconds` (at most "
        u"60), "
        "then answers; honours cancellation. A load generator for clients."_s,
        schema({{"rate"_L1, QJsonObject{{"type"_L1, "integer"_L1},
                                        {"default"_L1, 10000},
                                        {"description"_L1, "notifications per second"_L1}}},
                {"seconds"_L1, QJsonObject{{"type"_L1, "number"_L1}, {"default"_L1, 10}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) { startFlood(c); });
    add(u"extra-tool"_s, u"Exists only after toggle-extra-tool."_s, schema({}),
        annotations(true, false, true), none,
        [this](const ToolCall &c) { respond(c.id, textResult(u"extra-tool ran"_s)); });
}

void DemoServer::defineGeneratedTools(int count)
{
    // Names, titles and descriptions that differ in more than a number, so a client's search
    // and sorting have something to work on.
    static const char *const Areas[] = {"billing", "calendar", "crm",     "docs",   "git",
                                        "issues",  "mail",     "metrics", "search", "storage"};
    for (int i = 1; i <= count; ++i) {
        const QString area = QString::fromLatin1(Areas[i % 10]);
        const QString name = u"%1-action-%2"_s.arg(area).arg(i, 4, 10, QLatin1Char('0'));
        QJsonObject tool{
            {"name"_L1, name},
            {"title"_L1, u"%1 action %2"_s.arg(area.at(0).toUpper() + area.mid(1)).arg(i)},
            {"description"_L1,
             u"Generated tool %1 of %2 in the %3 area (--tools): answers with its name and "
             "arguments."_s.arg(i)
                 .arg(count)
                 .arg(area)},
            {"inputSchema"_L1,
             schema({{"query"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                              {"description"_L1, "what to look for"_L1}}},
                     {"limit"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 10}}}})},
            {"annotations"_L1, annotations(true, false, true)}};
        m_tools.push_back({name, tool, [this, name](const ToolCall &c) {
                               respond(c.id,
                                       textResult(name + u" "_s +
                                                  QString::fromUtf8(QJsonDocument(c.args).toJson(
                                                      QJsonDocument::Compact))));
                           }});
    }
}

QJsonObject DemoServer::toolDefinition(const QString &name)
{
    const Tool *tool = findTool(name);
    return tool ? tool->definition : QJsonObject();
}

const DemoServer::Tool *DemoServer::findTool(const QString &name)
{
    const std::vector<Tool> &table = toolTable();
    const auto at = m_toolIndex.constFind(name);
    // extra-tool exists only while toggled on.
    if (at == m_toolIndex.constEnd() || (!m_extraTool && name == "extra-tool"_L1))
        return nullptr;
    return &table[size_t(*at)];
}

QJsonArray DemoServer::tools()
{
    QJsonArray t;
    for (const Tool &tool : toolTable()) {
        if (m_extraTool || tool.name != "extra-tool"_L1)
            t.append(tool.definition);
    }
    return t;
}

void DemoServer::incrementCounter(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QJsonValue by = args.value("by"_L1);
    if (!by.isUndefined() && !by.isDouble()) {
        respond(id, textResult(u"argument \"by\" must be an integer"_s, true));
        return;
    }
    m_state->add(by.toInteger(1));
    log(u"info"_s, u"counter is now %1"_s.arg(m_state->counter()));
    if (m_subscriptions.contains(u"demo://counter"_s)) {
        // A subscription update belongs to no request: it goes to the standalone stream.
        const QJsonValue previous = std::exchange(m_related, QJsonValue());
        notify(u"notifications/resources/updated"_s, {{"uri"_L1, "demo://counter"_L1}});
        m_related = previous;
    }
    const QJsonObject answer = textResult(u"counter = %1"_s.arg(m_state->counter()));
    const int delay = std::clamp(int(args.value("delay_ms"_L1).toInteger(0)), 0, 3'600'000);
    if (delay == 0) {
        respond(id, answer);
        return;
    }
    QTimer::singleShot(delay, this, [this, id, answer] { respond(id, answer); });
}

void DemoServer::getWeather(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QString city = args.value("city"_L1).toString(u"Paris"_s);
    const QJsonObject forecast{{"city"_L1, city},
                               {"temperature"_L1, 12.5 + city.size()},
                               {"conditions"_L1, city.size() % 2 ? "cloudy"_L1 : "sunny"_L1}};
    // A sentence for a person, then the JSON itself as text: tools.mdx asks a tool with
    // structured content to return it serialised too, for clients from before 2025-06-18.
    QJsonObject r = textResult(u"%1: %2 degrees, %3"_s.arg(city)
                                   .arg(forecast.value("temperature"_L1).toDouble())
                                   .arg(forecast.value("conditions"_L1).toString()));
    QJsonArray content = r.value("content"_L1).toArray();
    content.append(QJsonObject{
        {"type"_L1, "text"_L1},
        {"text"_L1, QString::fromUtf8(QJsonDocument(forecast).toJson(QJsonDocument::Compact))}});
    r.insert("content"_L1, content);
    r.insert("structuredContent"_L1, forecast);
    respond(id, r);
}

void DemoServer::startFlood(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QJsonValue &token = c.token;
    const qint64 rate = std::clamp<qint64>(args.value("rate"_L1).toInteger(10000), 0, 100'000);
    const double seconds = std::clamp(args.value("seconds"_L1).toDouble(10.0), 0.0, 60.0);
    const qint64 total = qRound64(double(rate) * seconds);
    // Bursts every 10 ms, not a timer per notification. The count due is computed from the
    // elapsed time, not from the number of ticks, so late ticks (a client that reads slowly
    // blocks our writes) catch up instead of stretching the flood.
    auto *timer = new QTimer(this);
    timer->setTimerType(Qt::PreciseTimer);
    timer->setInterval(10);
    const QString key = JsonRpcMessage::idKey(id);
    m_running.insert(key, timer);
    auto sent = std::make_shared<qint64>(0);
    auto lastProgressMs = std::make_shared<qint64>(0);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    connect(timer, &QTimer::timeout, this,
            [this, timer, key, id, token, rate, total, sent, lastProgressMs, clock] {
                const QJsonValue previous = std::exchange(m_related, id);
                const auto restore = qScopeGuard([&] { m_related = previous; });
                const qint64 elapsed = clock->elapsed();
                const qint64 due = std::min(total, rate * elapsed / 1000);
                // Sent regardless of logging/setLevel: the count a client sees must be exactly
                // rate x seconds, or the flood cannot tell a client that drops from one that
                // filters.
                // A modern request sends them only when its _meta asked for a log level.
                const bool logs = mayLog(u"info"_s, true);
                while (*sent < due) {
                    ++*sent;
                    if (logs)
                        notify(u"notifications/message"_s,
                               {{"level"_L1, "info"_L1},
                                {"logger"_L1, "flood"_L1},
                                {"data"_L1, u"flood %1/%2"_s.arg(*sent).arg(total)}});
                }
                // Log messages do not reset a client's request timeout; progress does, so a
                // 60 s flood is not cut off by a 60 s timeout when the client asked for
                // progress.
                if (!token.isUndefined() && !token.isNull() && elapsed - *lastProgressMs >= 1000) {
                    *lastProgressMs = elapsed;
                    notify(
                        u"notifications/progress"_s,
                        {{"progressToken"_L1, token}, {"progress"_L1, *sent}, {"total"_L1, total}});
                }
                if (*sent >= total) {
                    m_running.remove(key);
                    timer->stop();
                    timer->deleteLater();
                    respond(id, textResult(u"flooded %1 notifications in %2 s"_s.arg(total).arg(
                                    double(clock->elapsed()) / 1000.0, 0, 'f', 2)));
                }
            });
    timer->start();
}

void DemoServer::startSlowTask(const QJsonValue &id, const QJsonObject &args,
                               const QJsonValue &token)
{
    const int duration =
        std::clamp(int(args.value("duration_ms"_L1).toInteger(2000)), 0, 3'600'000);
    const int steps = std::clamp(int(args.value("steps"_L1).toInteger(5)), 1, 10'000);
    auto *timer = new QTimer(this);
    timer->setInterval(duration / steps);
    const QString key = JsonRpcMessage::idKey(id);
    m_running.insert(key, timer);
    auto step = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, key, id, token, steps, duration, step] {
        const QJsonValue previous = std::exchange(m_related, id);
        const auto restore = qScopeGuard([&] { m_related = previous; });
        ++*step;
        if (!token.isUndefined() && !token.isNull())
            notify(u"notifications/progress"_s,
                   {{"progressToken"_L1, token},
                    {"progress"_L1, *step},
                    {"total"_L1, steps},
                    {"message"_L1, u"step %1 of %2"_s.arg(*step).arg(steps)}});
        if (*step >= steps) {
            m_running.remove(key);
            timer->stop();
            timer->deleteLater();
            respond(id,
                    textResult(
                        u"slow task finished after %1 ms in %2 steps"_s.arg(duration).arg(steps)));
        }
    });
    timer->start();
}

} // namespace Sonde

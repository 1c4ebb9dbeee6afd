// SPDX-License-Identifier: MIT
// DemoServer with --replay: it answers from a recorded session (ReplayBook) instead of its
// own tools, so a client can be tested against a server's real past behaviour.
#include "demoserver.h"
#include "replaybook.h"

using namespace Qt::StringLiterals;

namespace Sonde {

void DemoServer::answerFromReplay(const JsonRpcMessage &m)
{
    ReplayBook &book = *m_state->replay();
    const QString method = m.method();
    if (const std::optional<ReplayBook::Answer> a = book.take(method, m.params())) {
        if (!a->error) {
            send(JsonRpcMessage::response(m.id(), a->result));
            return;
        }
        const QJsonObject e = *a->error;
        send(JsonRpcMessage::errorResponse(m.id(),
                                           e.value("code"_L1).toInt(JsonRpcCode::InternalError),
                                           e.value("message"_L1).toString(), e.value("data"_L1)));
        return;
    }
    // A recording that starts after the handshake (or a cut-out part of one) still serves:
    // the handshake gets a plain default, and says so on stderr.
    if (method == "initialize"_L1) {
        Q_EMIT stderrLine(u"demo: %1 holds no initialize: answering with a default "
                          u"(tools, resources and prompts)"_s.arg(book.source()));
        QJsonObject result = initialize(m.params());
        result.insert("capabilities"_L1, QJsonObject{{"tools"_L1, QJsonObject{}},
                                                     {"resources"_L1, QJsonObject{}},
                                                     {"prompts"_L1, QJsonObject{}}});
        result.insert("serverInfo"_L1,
                      QJsonObject{{"name"_L1, "sonde-demo-server (replay)"_L1},
                                  {"version"_L1, serverInfo().value("version"_L1)}});
        result.insert("instructions"_L1, u"A replay of %1."_s.arg(book.source()));
        send(JsonRpcMessage::response(m.id(), result));
        return;
    }
    if (method == "ping"_L1) {
        send(JsonRpcMessage::response(m.id(), QJsonObject{}));
        return;
    }
    const QString what = method == "tools/call"_L1
                             ? u"tools/call of \"%1\""_s.arg(m.params().value("name"_L1).toString())
                             : method;
    const QString why = book.knowsMethod(method)
                            ? u"%1 was recorded, but never with these params"_s.arg(what)
                            : u"%1 was never recorded"_s.arg(what);
    fail(m.id(), JsonRpcCode::MethodNotFound,
         u"%1: this server is a replay of %2 and answers only what it recorded"_s.arg(
             why, book.source()),
         QJsonObject{{"replay"_L1, book.source()}, {"method"_L1, method}});
}

} // namespace Sonde

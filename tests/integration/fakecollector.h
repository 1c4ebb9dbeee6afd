// SPDX-License-Identifier: MIT
#pragma once
// An OTLP/HTTP collector on loopback for the tests of OtlpSender and its callers: it answers
// every POST with the status it is given (or not at all: hang), keeps the last request's
// JSON body and headers, and counts the POSTs on its side of the wire.
// Thread: the test's; it runs on the test's event loop.

#include "scriptedhttpserver.h"

namespace SondeTest {

class FakeCollector
{
public:
    // `status` 0: never answer.
    explicit FakeCollector(int status = 200, QByteArray body = "{}",
                           QByteArray contentType = "application/json")
    {
        m_server.on(QString(),
                    [this, status, body, contentType](const ScriptedHttpServer::Request &r) {
                        headers = r.headers;
                        received = r.body;
                        return status ? ScriptedHttpServer::response(status, contentType, body)
                                      : ScriptedHttpServer::hang();
                    });
        m_listening = m_server.listen();
    }
    bool isListening() const { return m_listening; }
    QString url() const { return u"http://127.0.0.1:%1/v1/traces"_s.arg(m_server.port()); }
    int posts() const { return m_server.posts(QString()); }

    QByteArray headers; // lower-cased
    QJsonObject received;

private:
    ScriptedHttpServer m_server;
    bool m_listening = false;
};

} // namespace SondeTest

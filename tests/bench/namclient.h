// SPDX-License-Identifier: MIT
// The same calls through a QNetworkAccessManager driven from this thread, with no engine: what
// Qt's HTTP stack costs by itself (it runs HTTP on a thread of its own and reads response
// headers a byte per read(2)), so the engine's own share can be told apart from Qt's.
// In 2026-07-28 it can send the engine's exact frame and headers (setFrame), post it the way
// the engine does (Post::AsTheEngine: HttpExchange's request and its one-shot body device),
// and hold a subscriptions/listen stream open beside the calls, as the engine does; each of
// these is a variant of the floor, so each one's share of the difference is measured.
#pragma once

#include "benchsupport.h"
#include "rawhttpclient.h"
#include "transport/httpexchange.h"
#include "wireframe.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

namespace SondeBench {

class NamClient
{
public:
    enum class Post
    {
        Bare,        // QNetworkAccessManager::post with a QByteArray
        AsTheEngine, // HttpExchange::request + postOnce (a body Qt cannot rewind)
    };

    NamClient(const QString &endpoint, bool modern, Post how = Post::Bare)
        : m_url(endpoint), m_modern(modern), m_how(how)
    {
        m_nam.setProxy(QNetworkProxy::NoProxy);
    }
    ~NamClient() { delete m_listen; }

    void setFrame(const WireFrame &frame) { m_frame = frame; }
    // Called as soon as an echo's answer is in, before the untimed wait for its reply's end.
    void setOnAnswered(std::function<void()> answered) { m_answered = std::move(answered); }

    // Opens `listen` (under `id`) and leaves it open, its events read and dropped.
    void openListen(const WireFrame &listen, int id)
    {
        m_listen = send(listen.withId(id), listen.headers());
        QObject::connect(m_listen, &QNetworkReply::readyRead, m_listen,
                         [r = m_listen] { r->readAll(); });
    }

    void initialize()
    {
        if (m_modern)
            return; // 2026-07-28: nothing before the first call
        QNetworkReply *r =
            post(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":)"
                 R"("2025-11-25","capabilities":{},"clientInfo":{"name":"nam","version":"1"}}})",
                 "\"id\":0");
        m_sessionId = r->rawHeader("Mcp-Session-Id");
        delete r;
        if (m_sessionId.isEmpty())
            fail(1, u"QNAM client: initialize gave no session id"_s);
        delete post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", nullptr);
    }

    double echo(int id)
    {
        const QByteArray body =
            m_frame.isEmpty() ? RawHttpClient::echoBody(id, m_modern) : m_frame.withId(id);
        const QByteArray marker = "\"id\":" + QByteArray::number(id);
        QElapsedTimer timer;
        timer.start();
        QNetworkReply *r = post(body, marker.constData());
        const double us = double(timer.nsecsElapsed()) / 1e3;
        delete r;
        // An error answer carries the id too, and a fast error is not a fast echo.
        if (!m_received.contains("Echo: hi"))
            fail(1, u"QNAM client: unexpected echo answer: "_s +
                        QString::fromUtf8(m_received.left(300)));
        return us;
    }

    void close()
    {
        if (m_listen)
            m_listen->abort();
        if (m_modern)
            return; // no session to end
        QNetworkRequest req(m_url);
        req.setRawHeader("Mcp-Session-Id", m_sessionId);
        QNetworkReply *r = m_nam.deleteResource(req);
        QEventLoop loop;
        QObject::connect(r, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(IoTimeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        delete r;
    }

private:
    QNetworkReply *send(const QByteArray &body, const Sonde::McpHeaders::List &headers)
    {
        if (m_how == Post::AsTheEngine) {
            QNetworkRequest req =
                Sonde::HttpExchange::request(m_url, Sonde::HttpExchange::Shape::Post, {});
            for (const auto &[name, value] : headers)
                req.setRawHeader(name, value);
            return Sonde::HttpExchange::postOnce(&m_nam, req, body);
        }
        QNetworkRequest req(m_url);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        req.setRawHeader("Accept", "application/json, text/event-stream");
        if (!m_sessionId.isEmpty()) {
            req.setRawHeader("Mcp-Session-Id", m_sessionId);
            req.setRawHeader("MCP-Protocol-Version", "2025-11-25");
        }
        for (const auto &[name, value] : headers)
            req.setRawHeader(name, value);
        return m_nam.post(req, body);
    }

    // Returns when the answer carrying `marker` is in (or, without one, when the reply ends);
    // the reply is left to finish on its own, untimed.
    QNetworkReply *post(const QByteArray &body, const char *marker)
    {
        Sonde::McpHeaders::List headers;
        if (!m_frame.isEmpty())
            headers = m_frame.headers();
        else if (m_modern)
            headers = {{"MCP-Protocol-Version", "2026-07-28"},
                       {"Mcp-Method", "tools/call"},
                       {"Mcp-Name", "echo"}};
        QNetworkReply *r = send(body, headers);
        QByteArray received;
        QEventLoop loop;
        bool answered = false;
        auto check = [&] {
            received += r->readAll();
            // JSON is complete when the reply is; an SSE answer when its event has ended.
            const bool sse = r->header(QNetworkRequest::ContentTypeHeader)
                                 .toString()
                                 .startsWith("text/event-stream"_L1);
            const qsizetype at = marker && sse ? received.indexOf(marker) : -1;
            if (r->isFinished() || (at >= 0 && received.indexOf("\n\n", at) >= 0)) {
                answered = true;
                loop.quit();
            }
        };
        QObject::connect(r, &QNetworkReply::readyRead, &loop, check);
        QObject::connect(r, &QNetworkReply::finished, &loop, check);
        QTimer::singleShot(IoTimeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        m_received = received;
        if (!answered)
            fail(1, u"QNAM client: no answer"_s);
        if (m_answered && marker)
            m_answered();
        if (!r->isFinished()) {
            // Untimed: let the response end so that its connection is reused.
            QEventLoop end;
            QObject::connect(r, &QNetworkReply::finished, &end, &QEventLoop::quit);
            QTimer::singleShot(IoTimeoutMs, &end, &QEventLoop::quit);
            end.exec();
        }
        return r;
    }

    QUrl m_url;
    bool m_modern = false;
    Post m_how = Post::Bare;
    QNetworkAccessManager m_nam;
    QByteArray m_sessionId;
    WireFrame m_frame;
    QNetworkReply *m_listen = nullptr;
    std::function<void()> m_answered;
    QByteArray m_received; // the last answer's body, as far as it was read
};

// A NamClient on a thread of its own (its QNetworkAccessManager created there), driven from
// this thread by a queued call and answered by one, as a front end drives the engine on its
// core thread: the two thread hops the engine adds to each call, without the engine's work.
class ThreadedNamClient
{
public:
    // `make` runs on the new thread and returns the client, set up.
    explicit ThreadedNamClient(std::function<std::unique_ptr<NamClient>()> make)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        onThread([&] {
            m_client = make();
            m_client->setOnAnswered([this] {
                QMetaObject::invokeMethod(m_waiting, &QEventLoop::quit, Qt::QueuedConnection);
            });
        });
    }
    ~ThreadedNamClient()
    {
        onThread([&] { m_client.reset(); });
        m_thread.quit();
        m_thread.wait();
    }

    void initialize() {}
    double echo(int id)
    {
        QEventLoop loop;
        m_waiting = &loop;
        QElapsedTimer timer;
        timer.start();
        QMetaObject::invokeMethod(
            &m_context,
            [this, id] {
                // A failure is the caller's to report, not a throw through the event loop.
                try {
                    m_client->echo(id);
                } catch (const Failure &f) {
                    m_failure = f.message;
                    QMetaObject::invokeMethod(m_waiting, &QEventLoop::quit, Qt::QueuedConnection);
                }
            },
            Qt::QueuedConnection);
        loop.exec();
        const double us = double(timer.nsecsElapsed()) / 1e3;
        // Untimed: the thread finishes the reply before it takes the next call.
        onThread([] {});
        if (!m_failure.isEmpty())
            fail(1, m_failure + u" (on its own thread)"_s);
        return us;
    }
    void close()
    {
        onThread([&] { m_client->close(); });
    }

private:
    // Benchmark set-up, not timed: a blocking call is fine here.
    template <typename F> void onThread(F f)
    {
        QMetaObject::invokeMethod(&m_context, f, Qt::BlockingQueuedConnection);
    }

    QThread m_thread;
    QObject m_context;
    std::unique_ptr<NamClient> m_client;
    QEventLoop *m_waiting = nullptr;
    QString m_failure;
};

} // namespace SondeBench

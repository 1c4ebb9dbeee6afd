// SPDX-License-Identifier: MIT
// The OAuth redirect listener module (sonde-oauth-listener): QtNetworkAuth's reply handler
// behind RedirectListener. Its one symbol is sonde_redirect_listen (RedirectListenerModule).
#include "auth/redirectlistener.h"

#include <QOAuthHttpServerReplyHandler>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace {

class HttpServerRedirectListener final : public Sonde::RedirectListener
{
public:
    explicit HttpServerRedirectListener(QOAuthHttpServerReplyHandler *handler) : m_handler(handler)
    {
    }
    ~HttpServerRedirectListener() override
    {
        if (m_handler) {
            m_handler->close();
            // Later: it may still be writing its page to the browser.
            m_handler->deleteLater();
        }
    }
    QUrl callback() const override { return m_handler ? QUrl(m_handler->callback()) : QUrl(); }
    quint16 port() const override
    {
        return m_handler && m_handler->isListening() ? m_handler->port() : 0;
    }
    void close() override
    {
        if (m_handler)
            m_handler->close();
    }

private:
    QPointer<QOAuthHttpServerReplyHandler> m_handler;
};

} // namespace

extern "C" Q_DECL_EXPORT Sonde::RedirectListener *
sonde_redirect_listen(const QString &pageText, Sonde::RedirectReceived received, QString *error)
{
    // Never the default constructor: it listens on every interface. The address spelled out
    // as a QHostAddress: a bare QHostAddress::LocalHost with no parent picks the (port,
    // parent) constructor, port 2 on every interface.
    auto *handler =
        new QOAuthHttpServerReplyHandler(QHostAddress(QHostAddress::LocalHost), 0, nullptr);
    if (!handler->isListening()) {
        delete handler;
        if (error)
            *error = u"cannot listen on 127.0.0.1 for the redirect"_s;
        return nullptr;
    }
    handler->setCallbackText(pageText);
    QObject::connect(handler, &QOAuthHttpServerReplyHandler::callbackReceived, handler,
                     [received = std::move(received)](const QVariantMap &values) {
                         if (received)
                             received(values);
                     });
    return new HttpServerRedirectListener(handler);
}

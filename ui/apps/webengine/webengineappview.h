// SPDX-License-Identifier: MIT
#pragma once

#include "apps/appview.h"

#include <QObject>
#include <QString>

class QWebChannel;
class QWebEngineProfile;
class QWebEngineView;

namespace Sonde {

// The scheme the trusted host page is served under (registered secure by the factory).
inline constexpr char HostScheme[] = "sonde-app";

// What the trusted host page's script sees over QWebChannel (in its own isolated world, out of
// the App's reach): the App's document, what its frame may ask for, and the two directions of
// postMessage.
class AppRelay : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString src MEMBER m_src CONSTANT)
    Q_PROPERTY(QString allow MEMBER m_allow CONSTANT)
public:
    AppRelay(QString src, QString allow, QObject *parent)
        : QObject(parent), m_src(std::move(src)), m_allow(std::move(allow))
    {
    }
    std::function<void(const QString &)> onMessage;
    std::function<void()> onPainted;

public Q_SLOTS:
    void fromApp(const QString &json)
    {
        if (onMessage)
            onMessage(json);
    }
    void painted()
    {
        if (onPainted)
            onPainted();
    }

Q_SIGNALS:
    void toApp(const QString &json);
    void heightChanged(int height);
    void frameWanted();

private:
    QString m_src;
    QString m_allow;
};

// An App in QtWebEngine: a trusted host page (no script of its own in the page's world) holding
// the App in <iframe sandbox="allow-scripts allow-same-origin allow-forms">, its document at an
// origin of its own (so cross-origin to the host page), the App's policy as the document's
// first <meta>; the relay script runs in an isolated world and passes on only messages whose
// source is that frame. One off-the-record profile per view: no cookies, cache
// or storage shared with another App or kept on disk.
class WebEngineAppView : public AppView
{
public:
    WebEngineAppView(QWidget *parent, Callbacks callbacks);
    ~WebEngineAppView() override;

    QWidget *widget() override;
    void load(const QByteArray &html, const QString &csp, const QStringList &permissions) override;
    void setClipboardAllowed(bool allowed) override;
    void post(const QJsonObject &message) override;
    void setContentHeight(int height) override;
    void notifyNextFrame() override;
    QImage grab() override;

private:
    Callbacks m_callbacks;
    QWebEngineProfile *m_profile = nullptr;
    QWebEngineView *m_view = nullptr;
    QWebChannel *m_channel = nullptr;
    AppRelay *m_relay = nullptr;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "apps/webengine/webengineappview.h"

#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QWebChannel>
#include <QWebEngineDownloadRequest>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineScript>
#include <QWebEngineScriptCollection>
#include <QWebEngineSettings>
#include <QWebEngineView>

#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// The page Sonde trusts: nothing but the App's frame. It has no script in the page's own
// world; the relay runs in an isolated world (ApplicationWorld), which the App's scripts
// cannot reach even where they could reach the page.
constexpr auto HostPage =
    R"(<!doctype html><html><head><meta charset="utf-8"><style>)"
    R"(html,body{margin:0;padding:0;height:100%;overflow:auto;background:transparent})"
    R"(iframe{display:block;border:0;width:100%;height:100%})"
    R"(</style></head><body><iframe id="sonde-app" sandbox="allow-scripts allow-forms">)"
    R"(</iframe></body></html>)";

// Messages pass only from the App's own frame (e.source), and to it only; the App's document
// arrives over the channel once both directions are connected, so its first ui/initialize
// always has a listener.
constexpr auto RelayScript = R"JS(
(function () {
  var frame = document.getElementById('sonde-app');
  new QWebChannel(qt.webChannelTransport, function (channel) {
    var relay = channel.objects.relay;
    window.addEventListener('message', function (e) {
      if (e.source !== frame.contentWindow) return;
      var text;
      try { text = JSON.stringify(e.data); } catch (x) { return; }
      if (typeof text === 'string') relay.fromApp(text);
    });
    relay.toApp.connect(function (text) {
      frame.contentWindow.postMessage(JSON.parse(text), '*');
    });
    relay.heightChanged.connect(function (h) {
      frame.style.height = h > 0 ? h + 'px' : '100%';
    });
    relay.frameWanted.connect(function () {
      requestAnimationFrame(function () { requestAnimationFrame(function () { relay.painted(); }); });
    });
    if (relay.allow) frame.setAttribute('allow', relay.allow);
    frame.srcdoc = relay.html;
  });
})();
)JS";

// The permission names a resource declares (apps.mdx _meta.ui.permissions), as the frame's
// permissions policy spells them.
QString allowAttribute(const QStringList &permissions)
{
    QStringList allow;
    for (const QString &p : permissions) {
        if (p == "camera"_L1 || p == "microphone"_L1 || p == "geolocation"_L1)
            allow << p;
        else if (p == "clipboardWrite"_L1)
            allow << u"clipboard-write"_s;
    }
    return allow.join(u"; "_s);
}

// The policy goes first so that nothing in the App's document runs before it: after a doctype
// (so the document keeps its standards mode), before everything else.
QString withPolicy(const QString &html, const QString &csp)
{
    const QString meta = u"<meta http-equiv=\"Content-Security-Policy\" content=\""_s +
                         QString(csp).replace(u'"', "&quot;"_L1) + u"\">"_s;
    static const QRegularExpression doctype(u"^\\s*<!doctype[^>]*>"_s,
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = doctype.match(html);
    if (m.hasMatch())
        return html.left(m.capturedEnd()) + meta + html.mid(m.capturedEnd());
    return meta + html;
}

QString levelName(QWebEnginePage::JavaScriptConsoleMessageLevel level)
{
    switch (level) {
    case QWebEnginePage::ErrorMessageLevel:
        return u"error"_s;
    case QWebEnginePage::WarningMessageLevel:
        return u"warning"_s;
    case QWebEnginePage::InfoMessageLevel:
        break;
    }
    return u"info"_s;
}

std::optional<QString> permissionName(QWebEnginePage::Feature feature)
{
    switch (feature) {
    case QWebEnginePage::MediaAudioCapture:
        return u"microphone"_s;
    case QWebEnginePage::MediaVideoCapture:
        return u"camera"_s;
    case QWebEnginePage::MediaAudioVideoCapture:
        return u"camera and microphone"_s;
    case QWebEnginePage::Geolocation:
        return u"geolocation"_s;
    default:
        return std::nullopt; // notifications, screen capture, mouse lock: never for an App
    }
}

class AppPage : public QWebEnginePage
{
public:
    AppPage(QWebEngineProfile *profile, AppView::Callbacks *callbacks, QObject *parent)
        : QWebEnginePage(profile, parent), m_callbacks(callbacks)
    {
    }

protected:
    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel level, const QString &message,
                                  int line, const QString &source) override
    {
        if (!m_callbacks->console)
            return;
        const QString where = source.isEmpty() || source.startsWith("about:"_L1)
                                  ? QString()
                                  : u" (%1:%2)"_s.arg(source).arg(line);
        m_callbacks->console(levelName(level), message + where);
    }
    bool acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame) override
    {
        // The host page is set once; the App's frame may load its srcdoc and whatever its
        // policy's frame-src lets it nest. The top never goes anywhere else.
        Q_UNUSED(url)
        Q_UNUSED(type)
        return !isMainFrame || !std::exchange(m_hostLoaded, true);
    }
    QWebEnginePage *createWindow(WebWindowType) override { return nullptr; }

private:
    AppView::Callbacks *m_callbacks;
    bool m_hostLoaded = false;
};

} // namespace

WebEngineAppView::WebEngineAppView(QWidget *parent, Callbacks callbacks)
    : m_callbacks(std::move(callbacks))
{
    m_view = new QWebEngineView(parent);
    // No storage name: off the record, nothing written to disk, nothing shared with another
    // App's profile.
    m_profile = new QWebEngineProfile(m_view);
    m_profile->setHttpCacheType(QWebEngineProfile::MemoryHttpCache);
    m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
    QObject::connect(m_profile, &QWebEngineProfile::downloadRequested, m_view,
                     [](QWebEngineDownloadRequest *d) { d->cancel(); });
    QWebEngineSettings *s = m_profile->settings();
    s->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
    s->setAttribute(QWebEngineSettings::JavascriptCanAccessClipboard, false);
    s->setAttribute(QWebEngineSettings::JavascriptCanPaste, false);
    s->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, false);
    s->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, false);
    s->setAttribute(QWebEngineSettings::LocalStorageEnabled, false);
    s->setAttribute(QWebEngineSettings::PluginsEnabled, false);
    s->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
    s->setAttribute(QWebEngineSettings::NavigateOnDropEnabled, false);
    s->setAttribute(QWebEngineSettings::FocusOnNavigationEnabled, false);
    s->setAttribute(QWebEngineSettings::ScreenCaptureEnabled, false);
    s->setAttribute(QWebEngineSettings::WebRTCPublicInterfacesOnly, true);

    auto *page = new AppPage(m_profile, &m_callbacks, m_view);
    m_view->setPage(page);
    m_view->setContextMenuPolicy(Qt::NoContextMenu);
    QObject::connect(
        page, &QWebEnginePage::featurePermissionRequested, m_view,
        [this, page](const QUrl &origin, QWebEnginePage::Feature feature) {
            const std::optional<QString> name = permissionName(feature);
            if (!name || !m_callbacks.permission) {
                page->setFeaturePermission(origin, feature, QWebEnginePage::PermissionDeniedByUser);
                return;
            }
            QPointer<QWebEnginePage> guard(page);
            m_callbacks.permission(*name, [guard, origin, feature](bool allow) {
                if (guard)
                    guard->setFeaturePermission(origin, feature,
                                                allow ? QWebEnginePage::PermissionGrantedByUser
                                                      : QWebEnginePage::PermissionDeniedByUser);
            });
        });
    QObject::connect(page, &QWebEnginePage::loadFinished, m_view, [this](bool ok) {
        if (m_callbacks.loaded)
            m_callbacks.loaded(ok);
    });
}

WebEngineAppView::~WebEngineAppView()
{
    // The page goes before its profile (Qt warns, and may crash, the other way round).
    if (m_view) {
        QWebEnginePage *page = m_view->page();
        m_view->setPage(nullptr);
        delete page;
        delete m_view;
    }
}

QWidget *WebEngineAppView::widget()
{
    return m_view;
}

void WebEngineAppView::load(const QByteArray &html, const QString &csp,
                            const QStringList &permissions)
{
    m_relay =
        new AppRelay(withPolicy(QString::fromUtf8(html), csp), allowAttribute(permissions), m_view);
    m_relay->onMessage = [this](const QString &json) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
        if (!doc.isObject()) {
            if (m_callbacks.console)
                m_callbacks.console(u"warning"_s,
                                    u"the App posted a message that is not a JSON object"_s);
            return;
        }
        if (m_callbacks.message)
            m_callbacks.message(doc.object());
    };
    m_relay->onPainted = [this] {
        if (m_callbacks.framePainted)
            m_callbacks.framePainted();
    };
    m_channel = new QWebChannel(m_view);
    m_channel->registerObject(u"relay"_s, m_relay);
    QWebEnginePage *page = m_view->page();
    page->setWebChannel(m_channel, QWebEngineScript::ApplicationWorld);

    QFile channelJs(u":/qtwebchannel/qwebchannel.js"_s);
    channelJs.open(QIODevice::ReadOnly);
    QWebEngineScript api;
    api.setName(u"sonde-webchannel"_s);
    api.setSourceCode(QString::fromUtf8(channelJs.readAll()));
    api.setInjectionPoint(QWebEngineScript::DocumentCreation);
    api.setWorldId(QWebEngineScript::ApplicationWorld);
    api.setRunsOnSubFrames(false);
    QWebEngineScript relay;
    relay.setName(u"sonde-relay"_s);
    relay.setSourceCode(QString::fromLatin1(RelayScript));
    relay.setInjectionPoint(QWebEngineScript::DocumentReady);
    relay.setWorldId(QWebEngineScript::ApplicationWorld);
    relay.setRunsOnSubFrames(false);
    page->scripts().clear();
    page->scripts().insert(api);
    page->scripts().insert(relay);
    page->setHtml(QString::fromLatin1(HostPage), QUrl(u"about:blank"_s));
}

void WebEngineAppView::post(const QJsonObject &message)
{
    if (m_relay)
        Q_EMIT m_relay->toApp(
            QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
}

void WebEngineAppView::setContentHeight(int height)
{
    if (m_relay)
        Q_EMIT m_relay->heightChanged(height);
}

void WebEngineAppView::notifyNextFrame()
{
    if (m_relay)
        Q_EMIT m_relay->frameWanted();
}

QImage WebEngineAppView::grab()
{
    return m_view->grab().toImage();
}

} // namespace Sonde

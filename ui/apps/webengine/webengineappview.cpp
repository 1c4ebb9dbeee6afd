// SPDX-License-Identifier: MIT
#include "apps/webengine/webengineappview.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QWebChannel>
#include <QWebEngineDownloadRequest>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineScript>
#include <QWebEngineScriptCollection>
#include <QWebEngineSettings>
#include <QWebEngineUrlRequestJob>
#include <QWebEngineUrlSchemeHandler>
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
    R"(</style></head><body>)"
    R"(<iframe id="sonde-app" sandbox="allow-scripts allow-same-origin allow-forms">)"
    R"(</iframe></body></html>)";

// Messages pass only from the App's own frame (e.source), and to it only; the frame gets its
// document's address over the channel once both directions are connected, so the App's first
// ui/initialize always has a listener.
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
    frame.src = relay.src;
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

// Serves the two documents of a view under sonde-app:, a scheme the factory registers secure
// (so both are secure contexts: without one Chromium refuses a declared permission before the
// user is asked, and crypto.subtle and the clipboard besides): the host page at
// sonde-app://host/, and the App's document at an origin of its own, sonde-app://app-<random>/.
// The App's frame keeps that origin (allow-same-origin), so a permission it declared can be
// asked for at all (Chromium denies an opaque origin without asking), and it is still
// cross-origin to the host page: it can neither read it nor lift its own sandbox. Nothing else
// is served; the App's policy refuses even this scheme for anything but its document.
class DocumentHandler : public QWebEngineUrlSchemeHandler
{
public:
    DocumentHandler(QString appHost, QByteArray appDocument, QObject *parent)
        : QWebEngineUrlSchemeHandler(parent), m_appHost(std::move(appHost)),
          m_appDocument(std::move(appDocument))
    {
    }
    void requestStarted(QWebEngineUrlRequestJob *job) override
    {
        const QUrl url = job->requestUrl();
        const bool root = url.path().isEmpty() || url.path() == "/"_L1;
        const QByteArray *document = !root                     ? nullptr
                                     : url.host() == "host"_L1 ? &m_hostPage
                                     : url.host() == m_appHost ? &m_appDocument
                                                               : nullptr;
        if (!document) {
            job->fail(QWebEngineUrlRequestJob::UrlNotFound);
            return;
        }
        auto *body = new QBuffer(job);
        body->setData(*document);
        job->reply("text/html", body);
    }

private:
    QString m_appHost;
    QByteArray m_appDocument;
    QByteArray m_hostPage{HostPage};
};

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
        // The host page is set once, and the top never goes anywhere else. A frame goes to the
        // App's document, an about: page the App made, or an origin it declared for frames:
        // the App navigating its own frame elsewhere (a data: page, any site) would leave its
        // policy behind and still speak to the host as that frame.
        Q_UNUSED(type)
        if (isMainFrame)
            return !std::exchange(m_hostLoaded, true);
        if (url == m_appUrl || url.scheme() == "about"_L1 ||
            (m_callbacks->frameAllowed && m_callbacks->frameAllowed(url)))
            return true;
        if (m_callbacks->console)
            m_callbacks->console(
                u"error"_s, u"Refused to load '%1' in a frame: not the App's document nor an "
                            u"origin its frameDomains declare"_s.arg(url.toString().left(300)));
        return false;
    }
    QWebEnginePage *createWindow(WebWindowType) override { return nullptr; }

public:
    void setAppUrl(const QUrl &appUrl) { m_appUrl = appUrl; }

private:
    AppView::Callbacks *m_callbacks;
    QUrl m_appUrl;
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
    // A host name no other App shares: each App's origin is its own.
    const QString appHost =
        u"app-"_s + QString::number(QRandomGenerator::system()->generate64(), 36);
    m_profile->installUrlSchemeHandler(
        HostScheme,
        new DocumentHandler(appHost, withPolicy(QString::fromUtf8(html), csp).toUtf8(), m_profile));
    const QString appUrl = QLatin1StringView(HostScheme) + u"://"_s + appHost + u'/';
    static_cast<AppPage *>(m_view->page())->setAppUrl(QUrl(appUrl));
    m_relay = new AppRelay(appUrl, allowAttribute(permissions), m_view);
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
    // An https base makes the host page, and so the App's frame, a secure context: without
    // one Chromium refuses a declared permission (geolocation, the camera) before asking, and
    // more (crypto.subtle, the clipboard). The name is reserved (.invalid): nothing resolves
    // it, and the App's policy refuses it as any undeclared origin.
    page->load(QUrl(QLatin1StringView(HostScheme) + u"://host/"_s));
}

void WebEngineAppView::setClipboardAllowed(bool allowed)
{
    m_profile->settings()->setAttribute(QWebEngineSettings::JavascriptCanAccessClipboard, allowed);
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

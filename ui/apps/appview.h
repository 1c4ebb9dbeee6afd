// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QtPlugin>

#include <functional>
#include <memory>

class QImage;
class QUrl;
class QWidget;

namespace Sonde {

// The web view an MCP App renders in, behind an interface: the one implementation
// (webengine/) links QtWebEngine and is a plugin the window loads the first time an App is
// shown (AppViewLoader), so a window that never shows one never maps Chromium. Nothing here is
// a QObject or needs a symbol of the executable: the plugin includes this header only.
// Thread: GUI.
class AppView
{
public:
    struct Callbacks
    {
        // A message the App's own frame posted (already checked: its source is the frame).
        std::function<void(const QJsonObject &message)> message;
        // A console line of the App's frame ("error", "warning", "info"); Chromium says each
        // content security policy refusal here too.
        std::function<void(const QString &level, const QString &text)> console;
        // The sandboxed frame's document finished loading (or failed).
        std::function<void(bool ok)> loaded;
        // The App asks for a browser permission ("camera", "microphone", "geolocation"):
        // answer through `decide`, now or later.
        std::function<void(const QString &permission, std::function<void(bool)> decide)> permission;
        // Whether a frame of the App may go to `url` (an origin its policy declares for frames).
        std::function<bool(const QUrl &url)> frameAllowed;
        // The frame asked for by notifyNextFrame() was painted.
        std::function<void()> framePainted;
    };

    virtual ~AppView() = default;
    virtual QWidget *widget() = 0;
    // Shows `html` at an origin of its own in a sandboxed frame (scripts; no top navigation,
    // no popups, no forms posted out), under `csp` as its first <meta>, with only the
    // `permissions` the resource declared allowed to be asked for. Its frames go to its own
    // document, to about: pages, and to what Callbacks::frameAllowed allows.
    virtual void load(const QByteArray &html, const QString &csp,
                      const QStringList &permissions) = 0;
    // Whether the App may write the clipboard (a declared clipboardWrite the user allowed).
    // Its profile is its own, so this reaches no other App. Off until set.
    virtual void setClipboardAllowed(bool allowed) = 0;
    // Posts a JSON-RPC message to the App's frame.
    virtual void post(const QJsonObject &message) = 0;
    // The height the App said its content needs (size-changed); 0: fill the view.
    virtual void setContentHeight(int height) = 0;
    // framePainted() once the page has painted the frame after this call (two animation
    // frames later, the browser's own "it is on screen").
    virtual void notifyNextFrame() = 0;
    // What is painted now, at the widget's size.
    virtual QImage grab() = 0;
};

class AppViewFactory
{
public:
    virtual ~AppViewFactory() = default;
    virtual std::unique_ptr<AppView> create(QWidget *parent, AppView::Callbacks callbacks) = 0;
    // Whether Chromium's own sandbox runs (not as root); when it does not, `sandboxNote()`
    // says why, for the App's log and the snapshot's JSON.
    virtual bool chromiumSandbox() const = 0;
    virtual QString sandboxNote() const = 0;
};

} // namespace Sonde

#define SONDE_APP_VIEW_FACTORY_IID "io.github.sonde.AppViewFactory/1"
Q_DECLARE_INTERFACE(Sonde::AppViewFactory, SONDE_APP_VIEW_FACTORY_IID)

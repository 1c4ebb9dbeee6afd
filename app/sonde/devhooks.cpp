// SPDX-License-Identifier: MIT
#include "devhooks.h"

#include "engine/corehost.h"
#include "timeline/timelinewidget.h"
#include "tools/schemaformwidget.h"
#include "tools/toolspanel.h"
#include "transport/fault.h"
#include "window/mainwindow.h"

#include <QAbstractItemView>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace Sonde {

DevHooks::DevHooks()
    // For documentation and visual checks on machines without a screen grabber.
    : m_screenshot(QStringLiteral("screenshot"),
                   QStringLiteral("Save a PNG of the window after DELAY ms, then quit."),
                   QStringLiteral("file")),
      m_delay(QStringLiteral("screenshot-delay"), QStringLiteral("Delay in ms (default 1500)."),
              QStringLiteral("ms"), QStringLiteral("1500")),
      m_exercise(
          QStringLiteral("exercise"),
          QStringLiteral("For screenshots: call a tool, then expire a session under a write.")),
      m_exitWhenReady(
          QStringLiteral("exit-when-ready"),
          QStringLiteral("For the launch benchmark: print \"ready MS ms: ...\" once the first "
                         "server's tool list is on screen, then quit."))
{
}

QList<QCommandLineOption> DevHooks::options() const
{
    return {m_screenshot, m_delay, m_exercise, m_exitWhenReady};
}

bool DevHooks::screenshot(const QCommandLineParser &parser) const
{
    return parser.isSet(m_screenshot);
}

bool DevHooks::exitWhenReady(const QCommandLineParser &parser) const
{
    return parser.isSet(m_exitWhenReady);
}

void DevHooks::start(const QCommandLineParser &parser, MainWindow &window, CoreHost &host,
                     const QElapsedTimer &sinceMain) const
{
    if (parser.isSet(m_exercise)) {
        // A short scripted session on the demo server, so screenshots show real traffic,
        // a structured answer, a reconnect, an uncertain write, a cancelled and a slow call
        // (bars long enough to see on the timeline), and then the uncertain write's answer.
        auto call = [&window](const QString &tool, const QJsonObject &args = {}) {
            window.toolsPanel()->selectTool(tool);
            if (!args.isEmpty())
                window.toolsPanel()->form()->setValue(args);
            window.toolsPanel()->requestCall();
        };
        const QJsonObject slow1500{{QStringLiteral("duration_ms"), 1500}};
        const QJsonObject slow400{{QStringLiteral("duration_ms"), 400}};
        QTimer::singleShot(700, &window, [call] { call(QStringLiteral("get-weather")); });
        QTimer::singleShot(1000, &window, [&window, &host, call] {
            Fault f;
            f.kind = Fault::Kind::ExpireAfterDispatch;
            host.injectFault(window.currentServer(), f);
            call(QStringLiteral("increment-counter"));
        });
        QTimer::singleShot(1300, &window,
                           [call, slow1500] { call(QStringLiteral("slow-task"), slow1500); });
        QTimer::singleShot(2000, &window,
                           [&window] { Q_EMIT window.toolsPanel()->cancelRequested(); });
        QTimer::singleShot(2100, &window,
                           [call, slow400] { call(QStringLiteral("slow-task"), slow400); });
        QTimer::singleShot(2700, &window, [&window] {
            window.toolsPanel()->selectTool(QStringLiteral("increment-counter"));
        });
    }
    if (parser.isSet(m_exitWhenReady)) {
        // Polled rather than tied to a model signal: "on screen" is the view showing rows
        // after a paint, whichever model and proxy feed it.
        auto *poll = new QTimer(&window);
        poll->setInterval(2);
        QObject::connect(poll, &QTimer::timeout, &window, [&window, &sinceMain, poll] {
            // The Tools tab's list by name: other views of the panel (the answer's) have rows
            // too, and they are not what "the tool list is on screen" means.
            const auto *list =
                window.toolsPanel()->findChild<QAbstractItemView *>(QStringLiteral("toolList"));
            if (!list || !list->isVisible() || !list->model() || list->model()->rowCount() == 0)
                return;
            window.repaint();
            std::printf("ready %lld ms: %d tools of %s\n",
                        static_cast<long long>(sinceMain.elapsed()), list->model()->rowCount(),
                        qPrintable(window.currentServer()));
            std::fflush(stdout);
            poll->stop();
            window.close();
        });
        poll->start();
    }
    if (parser.isSet(m_screenshot)) {
        QTimer::singleShot(parser.value(m_delay).toInt(), &window,
                           [&window, path = parser.value(m_screenshot)] {
                               if (window.tabs()->currentWidget() == window.timeline())
                                   window.timeline()->fitAll();
                               window.grab().save(path);
                               window.close();
                           });
    }
}

} // namespace Sonde

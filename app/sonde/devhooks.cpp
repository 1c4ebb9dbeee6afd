// SPDX-License-Identifier: MIT
#include "devhooks.h"

#include "doctor/doctorpanel.h"
#include "engine/corehost.h"
#include "timeline/timelinewidget.h"
#include "tools/schemaformwidget.h"
#include "tools/toolspanel.h"
#include "transport/fault.h"
#include "util/commandline.h"
#include "window/mainwindow.h"

#include <QAbstractItemView>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

void DevHooks::addOptions(CommandLine &line)
{
    // For documentation and visual checks on machines without a screen grabber.
    line.addValueOption(u"--screenshot"_s);
    line.document(u"--screenshot"_s, u"Save a PNG of the window after DELAY ms, then quit."_s,
                  u"file"_s);
    line.addValueOption(u"--screenshot-delay"_s, [](const QString &ms) {
        bool ok = false;
        return ms.toInt(&ok) >= 0 && ok ? QString() : u"--screenshot-delay wants milliseconds"_s;
    });
    line.document(u"--screenshot-delay"_s, u"Delay in ms (default 1500)."_s, u"ms"_s);
    line.addFlag(u"--exercise"_s);
    line.document(u"--exercise"_s,
                  u"For screenshots: call a tool, then expire a session under a write."_s);
    line.addFlag(u"--exercise-doctor"_s);
    line.document(u"--exercise-doctor"_s,
                  u"For screenshots: have the demo server print a line that is not JSON, "
                  u"then run the doctor on it."_s);
    line.addFlag(u"--exercise-app"_s);
    line.document(u"--exercise-app"_s,
                  u"For screenshots: call the demo server's counter-app, whose answer is an "
                  u"MCP App."_s);
    line.addFlag(u"--exit-when-ready"_s);
    line.document(u"--exit-when-ready"_s,
                  u"For the launch benchmark: print \"ready MS ms: ...\" once the first "
                  u"server's tool list is on screen, then quit."_s);
}

bool DevHooks::endsTheRun(const CommandLine &line)
{
    return line.isSet(u"--screenshot"_s) || line.isSet(u"--exit-when-ready"_s);
}

void DevHooks::start(const CommandLine &line, MainWindow &window, CoreHost &host,
                     const QElapsedTimer &sinceMain)
{
    if (line.isSet(u"--exercise"_s)) {
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
    if (line.isSet(u"--exercise-doctor"_s)) {
        // A live finding (stdio.non-jsonrpc-stdout, on a stdio demo), then a Run beside it.
        QTimer::singleShot(700, &window, [&window] {
            window.toolsPanel()->selectTool(QStringLiteral("print-garbage"));
            window.toolsPanel()->requestCall();
        });
        QTimer::singleShot(1000, &window,
                           [&window] { Q_EMIT window.doctorPanel()->runRequested(false); });
    }
    if (line.isSet(u"--exercise-app"_s)) {
        QTimer::singleShot(700, &window, [&window] {
            window.toolsPanel()->selectTool(QStringLiteral("counter-app"));
            window.toolsPanel()->requestCall();
        });
    }
    if (line.isSet(u"--exit-when-ready"_s)) {
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
    if (line.isSet(u"--screenshot"_s)) {
        QTimer::singleShot(line.isSet(u"--screenshot-delay"_s)
                               ? line.value(u"--screenshot-delay"_s).toInt()
                               : 1500,
                           &window, [&window, path = line.value(u"--screenshot"_s)] {
                               if (window.tabs()->currentWidget() == window.timeline())
                                   window.timeline()->fitAll();
                               window.grab().save(path);
                               window.close();
                           });
    }
}

} // namespace Sonde

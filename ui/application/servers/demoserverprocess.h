// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QProcess>
#include <QUrl>

#include <memory>

namespace Sonde {

class Clock;
class ClockTimer;
class SteadyClock;

// The built-in HTTP demo as Sonde's own child: `sonde-demo-server --http 127.0.0.1:0`
// (program and arguments, never a shell), whose first stdout line is the URL it listens on.
// ready(url) once that line came, failed(why) when it did not within StartTimeoutMs or the
// process could not start, died(why) when it ends while it was wanted. stop() closes it
// (SIGTERM, then SIGKILL after StopGraceMs) and says stopped() once it is gone.
// No Widgets; no waitFor*. Thread: GUI; owned by the window.
class DemoServerProcess : public QObject
{
    Q_OBJECT
public:
    static constexpr int StartTimeoutMs = 5000;
    static constexpr int StopGraceMs = 1000;

    // `clock` times the start and the stop (a ManualClock in tests); null: a steady one.
    explicit DemoServerProcess(QObject *parent = nullptr, const Clock *clock = nullptr);
    ~DemoServerProcess() override;

    void start(const QString &program, const QStringList &arguments = httpArguments());
    void stop();
    bool isRunning() const { return m_process->state() != QProcess::NotRunning; }
    // stop() was called and the process has not exited yet.
    bool isStopping() const { return m_stopping; }
    bool isReady() const { return m_url.isValid(); }
    QUrl url() const { return m_url; }
    qint64 processId() const { return m_process->processId(); }

    static QStringList httpArguments()
    {
        return {QStringLiteral("--http"), QStringLiteral("127.0.0.1:0")};
    }

Q_SIGNALS:
    void ready(const QUrl &url);
    void failed(const QString &why);
    void died(const QString &why);
    void stopped();

private:
    void readUrl();
    void onFinished(int code, QProcess::ExitStatus status);
    void fail(const QString &why);
    QString lastWords() const;

    std::unique_ptr<SteadyClock> m_ownClock;
    QProcess *m_process = nullptr;
    ClockTimer *m_timer = nullptr;
    QUrl m_url;
    QByteArray m_stderrTail;
    bool m_stopping = false;
    bool m_failedSaid = false; // failed() once per start, not again when the kill lands
};

} // namespace Sonde

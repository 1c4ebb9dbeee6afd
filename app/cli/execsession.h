// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>

#include <memory>

namespace Sonde {

class LineReader;
class StepRunner;

// `sonde-cli exec [FILE|-]`: JSON steps, one a line, numbered as they are read and run on a
// StepRunner. Each waits for the synchronous step before it, except after an "async" step
// (which lets the next one start) and a "cancel" whose step is running (handled at once, so
// it can reach a call that blocks the line). Lines are read from the start and queue until
// start(), which CliRunner calls with the StepRunner once the session is ready.
// Thread: the main thread. Owned by CliRunner; emits each answer (with its "step" and "op")
// as it comes, and finished() once the input has ended and every step has answered.
class ExecSession : public QObject
{
    Q_OBJECT
public:
    explicit ExecSession(QObject *parent = nullptr);
    ~ExecSession() override;

    // Starts reading `path` ("-": stdin, as the lines come; a file: all of it now). False
    // with the reason when the file cannot be read.
    bool open(const QString &path, QString *error);
    // The session is ready: steps run on `runner` from now on.
    void start(StepRunner &runner);
    // The run is ending: nothing new starts (the answers of running steps still come).
    void stop();

Q_SIGNALS:
    void stepAnswered(const QJsonObject &answer);
    void inputFailed(const QString &error); // the input ended on an error (a line too long)
    void finished(int exitCode);            // 0: every step succeeded, 1: one did not

private:
    struct Line
    {
        int number = 0;
        QByteArray text;
        int cancels = 0; // a cancel step: the step it cancels
    };
    void onLine(const QByteArray &line);
    void onInputEnded(const QString &error);
    void pump();
    void startStep(const Line &line);
    void cancelStep(int number, int target);

    StepRunner *m_runner = nullptr; // from start()
    std::unique_ptr<LineReader> m_stdinReader;
    QList<Line> m_queue;              // read, not started
    QHash<int, QJsonValue> m_running; // started, not answered: step -> op
    QHash<int, quint64> m_tickets;    // running steps that are calls: step -> ticket
    int m_read = 0;
    bool m_stopped = false;
    bool m_blocked = false; // a synchronous step is running
    bool m_inputEnded = false;
    bool m_failed = false;
};

} // namespace Sonde

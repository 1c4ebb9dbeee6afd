// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "doctor/doctorfinding.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QProcess>

class QTimer;

namespace Sonde {

// The doctor's stdio probes that need a process of their own: the server started again
// (program + arguments, never a shell), asked for a protocol version nobody speaks (the
// answer must not echo it; in 2026-07-28 it must be -32022), then its stdin closed and the
// time it takes to exit measured. Every line it writes to stdout that is not JSON-RPC is
// stdio.non-jsonrpc-stdout. Bounded: `timeoutMs` for the answer, `exitWaitMs` for the exit,
// then SIGKILL. Thread: the caller's. Owned by the DoctorRun.
class RawStdioProbes : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        ServerConfig server;
        bool rev20260728 = false;
        int timeoutMs = 5000;
        int exitWaitMs = 2000;
        QStringList only;
    };

    explicit RawStdioProbes(Options options, QObject *parent = nullptr);
    ~RawStdioProbes() override;

    void start();
    QStringList ran() const { return m_ran; }
    QMap<QString, QString> skipped() const { return m_skipped; }

Q_SIGNALS:
    void found(const Sonde::DoctorFinding &finding);
    void finished();

private:
    bool wanted(const QString &checkId) const;
    void onStdout();
    void onLine(const QByteArray &line);
    void onAnswer(const QJsonObject &answer, const QByteArray &line);
    void closeInput();
    void fail(const QString &checkId, const QString &message, const QByteArray &response,
              DoctorSeverity severity);
    void done();

    Options m_options;
    QPointer<QProcess> m_process;
    QTimer *m_timer = nullptr;
    QByteArray m_buffer;
    QByteArray m_request;
    QElapsedTimer m_closedAt;
    bool m_answered = false;
    bool m_inputClosed = false;
    bool m_finished = false;
    QStringList m_ran;
    QMap<QString, QString> m_skipped;
};

} // namespace Sonde

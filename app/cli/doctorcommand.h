// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"
#include "clioptions.h"
#include "transcript/redactor.h"
#include "transcript/transcriptwriter.h"

#include <QUrl>

#include <functional>
#include <memory>

namespace Sonde {

class DoctorRun;
class SecretStore;
struct DoctorReport;

// `sonde-cli CONNECTION doctor [--format F] [--out FILE] [--only IDS] [--allow-writes]`: one
// DoctorRun against the server, its report rendered in the asked format on stdout or into
// --out, its traffic into --transcript. Exit 0 without an error finding, 1 with one, 2 when
// the server could not be reached (docs/doctor.md); after SIGINT the report of what ran so
// far, then 128 + the signal. Thread: the main thread.
class DoctorCommand : public CliCommand
{
    Q_OBJECT
public:
    explicit DoctorCommand(CliOptions options, QObject *parent = nullptr);
    ~DoctorCommand() override;
    void start() override;
    void interrupt(int signo) override;
    int stopBoundMs() const override { return 8000; }
    void abandon(int signo) override;

private:
    void startRun(std::function<std::unique_ptr<SecretStore>()> secrets);
    void onFinished(const DoctorReport &report);

    CliOptions m_options;
    Redactor m_redactor;
    TranscriptWriter m_transcript;
    std::unique_ptr<DoctorRun> m_run;
    QUrl m_printedAuthorizationUrl;
    int m_signal = 0;
    bool m_done = false;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#include "proxywrapcommand.h"

#include "config/configwrapper.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

bool ProxyWrapCommand::handles(const QStringList &args)
{
    const QString verb = args.value(0);
    return verb == "wrap"_L1 || verb == "unwrap"_L1 || verb == "wrapped"_L1;
}

std::unique_ptr<ProxyWrapCommand> ProxyWrapCommand::parse(const QStringList &args, QString *error)
{
    std::unique_ptr<ProxyWrapCommand> c(new ProxyWrapCommand);
    c->m_verb = args.value(0);
    const QString usage = u"proxy %1: "_s.arg(c->m_verb);
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        auto value = [&](QString *out) {
            if (i + 1 >= args.size()) {
                *error = usage + a + u" needs a value"_s;
                return false;
            }
            *out = args.at(++i);
            return true;
        };
        QString v;
        if (a == "--config"_L1) {
            if (!value(&c->m_config))
                return nullptr;
        } else if (a == "--server"_L1 && c->m_verb != "wrapped"_L1) {
            if (!value(&c->m_server))
                return nullptr;
        } else if (a == "--yes"_L1 && c->m_verb != "wrapped"_L1) {
            c->m_yes = true;
        } else if (a == "--control"_L1 && c->m_verb == "wrap"_L1) {
            if (!value(&v))
                return nullptr;
            c->m_proxyArgs << u"--control"_s << QFileInfo(v).absoluteFilePath();
        } else if (a == "--port"_L1 && c->m_verb == "wrap"_L1) {
            if (!value(&v))
                return nullptr;
            bool ok = false;
            const uint port = v.toUInt(&ok);
            if (!ok || port == 0 || port > 65535) {
                *error = usage + u"--port %1: a port from 1 to 65535"_s.arg(v);
                return nullptr;
            }
            c->m_port = quint16(port);
        } else {
            *error = usage + u"unknown option %1"_s.arg(a);
            return nullptr;
        }
    }
    if (c->m_config.isEmpty() || (c->m_verb != "wrapped"_L1 && c->m_server.isEmpty())) {
        *error =
            usage + (c->m_verb == "wrapped"_L1 ? u"--config FILE is needed"_s
                                               : u"--config FILE and --server NAME are needed"_s);
        return nullptr;
    }
    return c;
}

void ProxyWrapCommand::start()
{
    const int status = run();
    QTimer::singleShot(0, this, [this, status] { Q_EMIT finished(status); });
}

int ProxyWrapCommand::run()
{
    auto fail = [](const QString &why) {
        std::fprintf(stderr, "sonde-cli proxy: %s\n", qPrintable(why));
        return 2;
    };
    QFile file(m_config);
    if (!file.open(QIODevice::ReadOnly))
        return fail(u"%1: %2"_s.arg(m_config, file.errorString()));
    const QByteArray bytes = file.read(8 * 1024 * 1024 + 1);
    file.close();
    if (m_verb == "wrapped"_L1) {
        QFile sidecar(ConfigWrapper::sidecarPath(m_config));
        const QByteArray kept =
            sidecar.open(QIODevice::ReadOnly) ? sidecar.readAll() : QByteArray();
        QString error;
        const auto entries = ConfigWrapper::entries(bytes, &error, kept);
        if (!entries)
            return fail(u"%1: %2"_s.arg(m_config, error));
        for (const ConfigWrapper::Entry &e : *entries)
            std::printf("%s\t%s\t%s\n", qPrintable(e.name), e.wrapped ? "wrapped" : "direct",
                        qPrintable(e.http ? e.url : e.command));
        return 0;
    }
    // The change first, as the user will see it in the file.
    ConfigWrapper::Options options;
    options.sondeCli = QCoreApplication::applicationFilePath();
    options.proxyArgs = m_proxyArgs;
    options.httpPort = m_port;
    ConfigWrapper::Edit preview;
    if (m_verb == "wrap"_L1) {
        preview = ConfigWrapper::wrap(bytes, m_server, options);
    } else {
        QFile sidecar(ConfigWrapper::sidecarPath(m_config));
        if (!sidecar.open(QIODevice::ReadOnly))
            return fail(
                u"%1: nothing was wrapped here (no %2)"_s.arg(m_config, sidecar.fileName()));
        preview.original = bytes; // checked again by unwrapFile
    }
    if (!preview.error.isEmpty())
        return fail(u"%1: %2"_s.arg(m_config, preview.error));
    if (m_verb == "wrap"_L1)
        std::fprintf(stderr, "server \"%s\" in %s\n  now:  %s\n  then: %s\n", qPrintable(m_server),
                     qPrintable(m_config), preview.original.simplified().constData(),
                     preview.replaced.simplified().constData());
    if (!m_yes) {
        if (!isatty(STDIN_FILENO))
            return fail(u"%1 %2: writing %3 needs --yes when no terminal can ask"_s.arg(
                m_verb, m_server, m_config));
        std::fprintf(stderr, "%s server \"%s\" in %s (a backup goes to %s)? [y/N] ",
                     m_verb == "wrap"_L1 ? "Wrap" : "Unwrap", qPrintable(m_server),
                     qPrintable(m_config), qPrintable(ConfigWrapper::backupPath(m_config)));
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
            std::fprintf(stderr, "sonde-cli proxy: nothing written\n");
            return 1;
        }
    }
    ConfigWrapper::Edit done;
    const QString error = m_verb == "wrap"_L1
                              ? ConfigWrapper::wrapFile(m_config, m_server, options, &done)
                              : ConfigWrapper::unwrapFile(m_config, m_server, &done);
    if (!error.isEmpty())
        return fail(error);
    if (m_verb == "wrap"_L1 && !done.target.isEmpty())
        std::fprintf(
            stderr,
            "wrapped \"%s\": the client now connects to 127.0.0.1:%u; run the proxy there:\n"
            "  %s proxy --listen 127.0.0.1:%u --target %s%s%s\n",
            qPrintable(m_server), m_port, qPrintable(options.sondeCli), m_port,
            qPrintable(done.target), m_proxyArgs.isEmpty() ? "" : " ",
            qPrintable(m_proxyArgs.join(u' ')));
    else
        std::fprintf(stderr, "%s \"%s\" in %s\n", m_verb == "wrap"_L1 ? "wrapped" : "unwrapped",
                     qPrintable(m_server), qPrintable(m_config));
    return 0;
}

} // namespace Sonde

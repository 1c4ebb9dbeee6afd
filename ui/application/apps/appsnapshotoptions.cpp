// SPDX-License-Identifier: MIT
#include "application/apps/appsnapshotoptions.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Sonde {

QString AppSnapshotOptions::usage()
{
    return uR"(usage: sonde app-snapshot CONNECTION --tool NAME [--args JSON] --out FILE.png
                         [--size WxH] [--timeout SECONDS]
CONNECTION: --command PROGRAM [--arg A]... [--env K=V]... [--cwd DIR]
          | --url URL [--header "Name: value"]...
          | --config FILE [--server NAME]
          [--era auto|initialize|2026-07-28]
Calls the tool, renders its MCP App as the window does (offscreen), waits until it settled
after its result (or the timeout, default 30 s), writes the PNG and prints one JSON line.
Exit 0: the App initialized and got its result; 1: it did not (timeout, no ui/initialize);
2: usage or connection; 3: the tool has no App; 4: its resource was refused.
)"_s;
}

std::optional<AppSnapshotOptions> AppSnapshotOptions::parse(const QStringList &args, QString *error)
{
    AppSnapshotOptions o;
    QString configPath;
    QString serverName;
    QString command;
    QString url;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        auto value = [&](QString *v) {
            if (i + 1 >= args.size()) {
                *error = u"%1 wants a value"_s.arg(a);
                return false;
            }
            *v = args.at(++i);
            return true;
        };
        QString v;
        if (a == "--tool"_L1) {
            if (!value(&o.tool))
                return std::nullopt;
        } else if (a == "--out"_L1) {
            if (!value(&o.out))
                return std::nullopt;
        } else if (a == "--args"_L1) {
            if (!value(&v))
                return std::nullopt;
            QJsonParseError e;
            const QJsonDocument doc = QJsonDocument::fromJson(v.toUtf8(), &e);
            if (!doc.isObject()) {
                *error = u"--args wants a JSON object: %1"_s.arg(
                    e.error == QJsonParseError::NoError ? u"not an object"_s : e.errorString());
                return std::nullopt;
            }
            o.arguments = doc.object();
        } else if (a == "--size"_L1) {
            if (!value(&v))
                return std::nullopt;
            static const QRegularExpression size(u"^(\\d{2,5})x(\\d{2,5})$"_s);
            const QRegularExpressionMatch m = size.match(v);
            if (!m.hasMatch() || m.captured(1).toInt() > 8192 || m.captured(2).toInt() > 8192) {
                *error = u"--size wants WIDTHxHEIGHT, each 10 to 8192 pixels"_s;
                return std::nullopt;
            }
            o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        } else if (a == "--timeout"_L1) {
            if (!value(&v))
                return std::nullopt;
            bool ok = false;
            const double s = v.toDouble(&ok);
            if (!ok || s <= 0 || s > 3600) {
                *error = u"--timeout wants seconds, more than 0 and at most 3600"_s;
                return std::nullopt;
            }
            o.timeoutMs = int(s * 1000);
        } else if (a == "--command"_L1) {
            if (!value(&command))
                return std::nullopt;
        } else if (a == "--arg"_L1) {
            if (!value(&v))
                return std::nullopt;
            o.server.arguments << v;
        } else if (a == "--env"_L1) {
            if (!value(&v))
                return std::nullopt;
            const qsizetype eq = v.indexOf(u'=');
            if (eq <= 0) {
                *error = u"--env wants NAME=VALUE"_s;
                return std::nullopt;
            }
            o.server.environment.insert(v.left(eq), v.mid(eq + 1));
        } else if (a == "--cwd"_L1) {
            if (!value(&o.server.workingDirectory))
                return std::nullopt;
        } else if (a == "--url"_L1) {
            if (!value(&url))
                return std::nullopt;
        } else if (a == "--header"_L1) {
            if (!value(&v))
                return std::nullopt;
            const qsizetype colon = v.indexOf(u':');
            if (colon <= 0) {
                *error = u"--header wants \"Name: value\""_s;
                return std::nullopt;
            }
            o.server.headers.append(
                {v.left(colon).trimmed().toUtf8(), v.mid(colon + 1).trimmed().toUtf8()});
        } else if (a == "--config"_L1) {
            if (!value(&configPath))
                return std::nullopt;
        } else if (a == "--server"_L1) {
            if (!value(&serverName))
                return std::nullopt;
        } else if (a == "--era"_L1) {
            if (!value(&v))
                return std::nullopt;
            const std::optional<ServerConfig::Era> era = ServerConfig::eraFromName(v);
            if (!era) {
                *error = u"--era wants auto, initialize or 2026-07-28"_s;
                return std::nullopt;
            }
            o.server.era = *era;
        } else {
            *error = u"unknown option %1 (sonde app-snapshot --help)"_s.arg(a);
            return std::nullopt;
        }
    }
    const int connections =
        int(!command.isEmpty()) + int(!url.isEmpty()) + int(!configPath.isEmpty());
    if (connections != 1) {
        *error = connections == 0 ? u"say which server: --command, --url or --config"_s
                                  : u"use only one of --command, --url and --config"_s;
        return std::nullopt;
    }
    if (o.tool.isEmpty() || o.out.isEmpty()) {
        *error = u"--tool and --out are needed"_s;
        return std::nullopt;
    }
    if (!configPath.isEmpty()) {
        const ServerConfigFile::Result r = ServerConfigFile::load(configPath);
        if (r.error.isError()) {
            *error = r.error.message();
            return std::nullopt;
        }
        if (serverName.isEmpty() && r.servers.size() == 1)
            serverName = r.servers.firstKey();
        if (!r.servers.contains(serverName)) {
            *error = u"%1: no server named \"%2\""_s.arg(configPath, serverName);
            return std::nullopt;
        }
        const ServerConfig::Era era = o.server.era;
        o.server = r.servers.value(serverName);
        if (era != ServerConfig::Era::Auto)
            o.server.era = era;
    } else if (!url.isEmpty()) {
        o.server.url = QUrl(url, QUrl::StrictMode);
        if (!o.server.url.isValid() ||
            (o.server.url.scheme() != "http"_L1 && o.server.url.scheme() != "https"_L1)) {
            *error = u"--url must be an http or https URL"_s;
            return std::nullopt;
        }
        o.server.route = ServerConfig::Route::StreamableHttp;
        o.server.name = o.server.url.host();
    } else {
        o.server.program = command;
        o.server.name = QFileInfo(command).fileName();
    }
    return o;
}

} // namespace Sonde

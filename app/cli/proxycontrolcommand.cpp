// SPDX-License-Identifier: MIT
#include "proxycontrolcommand.h"

#include "linereader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

ProxyControlCommand::ProxyControlCommand(QString socketPath) : m_path(std::move(socketPath))
{
}

ProxyControlCommand::~ProxyControlCommand() = default;

void ProxyControlCommand::start()
{
    m_socket = new QLocalSocket(this);
    connect(m_socket, &QLocalSocket::readyRead, this, &ProxyControlCommand::readAnswers);
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError e) {
        if (e == QLocalSocket::ServerNotFoundError || e == QLocalSocket::ConnectionRefusedError)
            return fail(
                u"proxy-control: %1: no proxy listens there (is one running with --control %1?)"_s
                    .arg(m_path));
        if (e == QLocalSocket::PeerClosedError)
            return; // disconnected() says what it means
        fail(u"proxy-control: %1: %2"_s.arg(m_path, m_socket->errorString()));
    });
    connect(m_socket, &QLocalSocket::disconnected, this, [this] {
        if (m_unanswered > 0 || !m_inputDone)
            fail(u"proxy-control: the proxy closed its control socket"_s);
    });
    // Lines go out only once connected: reading starts then.
    connect(m_socket, &QLocalSocket::connected, this, [this] {
        m_input = std::make_unique<LineReader>(STDIN_FILENO);
        connect(m_input.get(), &LineReader::lineRead, this, &ProxyControlCommand::send);
        connect(m_input.get(), &LineReader::endOfInput, this, [this](const QString &error) {
            if (!error.isEmpty())
                return fail(u"proxy-control: %1"_s.arg(error));
            m_inputDone = true;
            maybeFinish();
        });
        m_input->start();
    });
    m_socket->connectToServer(m_path);
}

void ProxyControlCommand::send(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    ++m_unanswered;
    m_socket->write(line + '\n');
}

void ProxyControlCommand::readAnswers()
{
    m_buffer += m_socket->readAll();
    for (qsizetype nl = m_buffer.indexOf('\n'); nl >= 0; nl = m_buffer.indexOf('\n')) {
        const QByteArray line = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
        if (!QJsonDocument::fromJson(line).object().value(u"ok"_s).toBool())
            m_refused = true;
        --m_unanswered;
    }
    maybeFinish();
}

void ProxyControlCommand::maybeFinish()
{
    if (m_done || !m_inputDone || m_unanswered > 0)
        return;
    m_done = true;
    Q_EMIT finished(m_refused ? 1 : 0);
}

void ProxyControlCommand::fail(const QString &why)
{
    if (m_done)
        return;
    m_done = true;
    std::fprintf(stderr, "sonde-cli %s\n", qPrintable(why));
    Q_EMIT finished(2);
}

void ProxyControlCommand::interrupt(int signo)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(128 + signo);
}

} // namespace Sonde

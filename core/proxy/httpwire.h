// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

namespace Sonde {

// The head of one HTTP/1.1 message as the proxy relays it: the start line's parts and the
// header fields in their order, names as the peer wrote them (a proxy changes only what it
// must). A value.
struct HttpHead
{
    QByteArray method, target; // a request's
    int status = 0;            // a response's
    QByteArray reason;         // a response's
    QByteArray version = "HTTP/1.1";
    QList<QPair<QByteArray, QByteArray>> fields;

    // The first field of that name (case-insensitive), or a null array.
    QByteArray value(QByteArrayView name) const;
    bool has(QByteArrayView name) const { return !value(name).isNull(); }
    void remove(QByteArrayView name);
    void set(const QByteArray &name, const QByteArray &value);
    // The hop-by-hop fields (RFC 9110 §7.6.1: Connection and what it names, Keep-Alive,
    // Proxy-Connection, TE, Upgrade, Proxy-Authorization, Proxy-Authenticate) removed; the
    // framing fields (Content-Length, Transfer-Encoding) are kept, since the proxy forwards
    // a body in the framing it came in.
    void removeHopByHop();
    // Whether the sender asked to close the connection after this message.
    bool wantsClose() const;
    QByteArray serialize() const; // the head as bytes, ending with the blank line
};

// An incremental reader of one HTTP/1.1 message after another on a connection (requests on
// the client's, responses on the server's): the head, then the body's payload as it comes,
// whatever its framing (Content-Length, chunked, or the rest of the connection for a
// response that has neither). It never holds a body: feed() returns the payload it could
// decode and keeps only an unfinished chunk-size line or head. A head over MaxHeadBytes, or
// a framing error, is an error() naming what was wrong. Thread: any, one at a time.
class HttpMessageReader
{
public:
    enum class Kind
    {
        Request,
        Response
    };
    static constexpr qsizetype MaxHeadBytes = 64 * 1024;

    explicit HttpMessageReader(Kind kind) : m_kind(kind) {}

    // A response to HEAD has no body whatever its head says: the method of the request it
    // answers, before its bytes are fed.
    void setRequestMethod(const QByteArray &method) { m_requestMethod = method; }

    struct Step
    {
        bool headDone = false;    // head() is new in this step
        QByteArray payload;       // body bytes decoded in this step
        bool messageDone = false; // the message ended in this step; what follows is rest
    };
    // Reads from `bytes` up to the end of the current message at most; what follows it stays
    // in `bytes` for the next message (call again after messageDone, with a fresh reader
    // state through next()).
    Step feed(QByteArray &bytes);
    // The connection closed: a body that runs to the close ends here; anything else still
    // unfinished is an error. True when the message is complete.
    bool finishAtClose();
    // Ready for the next message on the same connection.
    void next();

    const HttpHead &head() const { return m_head; }
    bool inHead() const { return m_state == State::Head; }
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    QString error() const { return m_error; }
    bool chunked() const { return m_chunked; }
    bool toClose() const { return m_toClose; } // the body runs until the connection closes
    qint64 payloadBytes() const { return m_payloadBytes; }

private:
    enum class State
    {
        Head,
        Length,    // Content-Length bytes left in m_left
        ChunkSize, // a chunk-size line
        ChunkData, // m_left bytes of a chunk, then its CRLF
        ChunkEnd,  // the CRLF after a chunk
        Trailer,   // trailer lines up to a blank one
        UntilClose,
        Done,
        Error
    };
    bool parseHead(const QByteArray &text);
    void fail(const QString &why);
    void startBody();

    Kind m_kind;
    State m_state = State::Head;
    HttpHead m_head;
    QByteArray m_requestMethod;
    QByteArray m_line; // an unfinished head, chunk-size or trailer line
    qint64 m_left = 0;
    qint64 m_payloadBytes = 0;
    bool m_chunked = false;
    bool m_toClose = false;
    QString m_error;
};

} // namespace Sonde

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringView>

#include <memory>
#include <optional>

namespace Sonde {

// A failure as a value: what went wrong (kind), where it came from (HTTP status, JSON-RPC
// code) and why (a cause chain plus, for grouped failures, child errors). The recovery
// classifier walks this structure (docs/recovery.md §1), so transports must keep the original
// failure as the cause instead of flattening it into a string. Copyable across threads.
class Error
{
public:
    enum class Kind
    {
        None,        // no error
        Transport,   // pipe, process, socket, stream: the bytes did not get through
        Protocol,    // the peer broke JSON-RPC/MCP rules (malformed line, bad version)
        Timeout,     // no answer within the request's timeout
        Remote,      // a JSON-RPC error response from the server
        Application, // a tool result with isError: true
        Cancelled,   // the user cancelled: never a strike, vetoes "session expired"
        Injected,    // a fault injected on purpose by the user
        Refused,     // not sent at all (the circuit breaker is open)
    };

    // What a transport-level failure was, when it matters to recovery.
    enum class Condition
    {
        Unspecified,
        Closed,       // the transport closed (EOF, process exit, stream end)
        NotStarted,   // the process or connection never came up
        NotConnected, // nothing to send on
        Refused,      // the server's address refused the connection: nothing was sent
    };

    // How far the failed request itself had got, as the transport that carried it knows it
    // (docs/recovery.md §1). Recovery classifies on this first: once a request was written,
    // and above all once the server had begun answering it, it may have run, whatever a later
    // exchange about it met (a resumption GET refused by a restarting server, a refresh of
    // the token that failed). Such an exchange's failure is the cause, never the reach.
    enum class Reach
    {
        Unknown,         // not said: made outside a transport; the cause chain decides
        NotWritten,      // no byte of it reached the server (a refused connection)
        Written,         // written; the server refused it with a status, or nothing came back
        ResponseStarted, // the server had begun a 2xx answer to it: it may have run
    };

    Error() = default;
    Error(Kind kind, QString message);
    Error(const Error &) = default;
    Error(Error &&) noexcept = default;
    Error &operator=(const Error &) = default;
    Error &operator=(Error &&) noexcept = default;
    // Unlinks the cause chain iteratively: a 20,000-deep chain must not recurse.
    ~Error();

    static Error transport(QString message, Condition condition = Condition::Unspecified);
    static Error protocol(QString message);
    static Error timeout(QString message);
    static Error remote(int code, QString message, QJsonValue data = {});
    static Error application(QString message);
    static Error cancelled(QString message);

    bool isError() const { return m_kind != Kind::None; }
    Kind kind() const { return m_kind; }
    QString message() const { return m_message; }
    Condition condition() const { return m_condition; }
    Reach reach() const { return m_reach; }
    std::optional<int> httpStatus() const { return m_httpStatus; }
    std::optional<int> jsonRpcCode() const { return m_jsonRpcCode; }
    // The Mcp-Session-Id the failed HTTP request carried (empty: none), so recovery can tell
    // "404 for my session" (expired) from "404, wrong URL".
    QString sessionId() const { return m_sessionId; }
    QJsonValue data() const { return m_data; }
    const QList<Error> &children() const { return m_children; }
    const Error *cause() const { return m_cause.get(); }

    // Each returns the error, so they chain: Error::transport(...).setHttpStatus(404).
    Error &setHttpStatus(int status) { return set(&Error::m_httpStatus, status); }
    Error &setJsonRpcCode(int code) { return set(&Error::m_jsonRpcCode, code); }
    Error &setData(const QJsonValue &data) { return set(&Error::m_data, data); }
    Error &setCondition(Condition condition) { return set(&Error::m_condition, condition); }
    Error &setReach(Reach reach) { return set(&Error::m_reach, reach); }
    Error &setSessionId(const QString &sessionId) { return set(&Error::m_sessionId, sessionId); }
    Error &addChild(const Error &child);
    // Wraps: this error was caused by `cause`. The chain is immutable once shared.
    Error &setCause(const Error &cause);

    static QString kindName(Kind kind);
    // None for a name this build does not know.
    static Kind kindFromName(QStringView name);
    static QString reachName(Reach reach);
    // {"kind","message","reach"?,"http_status"?,"code"?,"data"?,"children"?,"cause"?}; the cause
    // chain is written iteratively and cut after `maxDepth` nodes so a hostile chain cannot blow
    // the stack or the output.
    QJsonObject toJson(int maxDepth = 64) const;
    // What toJson wrote, read back (a transcript's connection-lost or initialize-failed), so
    // that writing it again gives the same object. The condition and a cut chain's
    // cause_truncated are not kept.
    static Error fromJson(const QJsonObject &o);

private:
    // The setters' one body.
    template <typename Field, typename Value> Error &set(Field Error::*field, const Value &value)
    {
        this->*field = value;
        return *this;
    }

    Kind m_kind = Kind::None;
    Condition m_condition = Condition::Unspecified;
    Reach m_reach = Reach::Unknown;
    QString m_message;
    std::optional<int> m_httpStatus;
    std::optional<int> m_jsonRpcCode;
    QString m_sessionId;
    QJsonValue m_data;
    QList<Error> m_children;
    std::shared_ptr<Error> m_cause; // never mutated once shared
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::Error)

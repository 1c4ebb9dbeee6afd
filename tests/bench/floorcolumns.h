// SPDX-License-Identifier: MIT
// The warm columns of sonde-bench-http: the engine and the floors beside it, each a client
// that runs blocks of echo calls in turn with the others, with what each block cost in wall
// time (per call), in this process's CPU time and in the server's. In 2026-07-28 the floors
// come in variants that each add one thing the engine does (its _meta and headers, its way
// of posting, its open listen stream), so the difference between two neighbours is that
// thing's share, measured in the same run rather than guessed.
//
// Under valgrind --tool=callgrind each timed block is one dump named after its column
// (CALLGRIND_DUMP_STATS_AT), so the client's instructions per call can be summed per column
// (callgrind-per-call.sh): a count that the load of a shared machine does not change.
#pragma once

#include "benchsupport.h"
#include "namclient.h"
#include "rawhttpclient.h"
#include "wireframe.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(label)
#endif

#include <functional>
#include <memory>
#include <vector>

namespace SondeBench {

struct Column
{
    using Block = std::function<void(int n, std::vector<double> *into)>;
    Column(QString columnName, QString columnKey, Block measure)
        : name(std::move(columnName)), key(std::move(columnKey)), block(std::move(measure))
    {
    }

    QString name; // as printed
    QString key;  // the dump's name under callgrind, and how the shares find it
    Block block;
    std::vector<double> us;
    qint64 ownNs = 0, serverNs = 0;
    int calls = 0;

    void timedBlock(int n, qint64 serverPid)
    {
        const QByteArray label = key.toUtf8();
        const qint64 own = ownCpuNs(), server = processCpuNs(serverPid);
        CALLGRIND_ZERO_STATS;
        block(n, &us);
        CALLGRIND_DUMP_STATS_AT(label.constData());
        ownNs += ownCpuNs() - own;
        serverNs += processCpuNs(serverPid) - server;
        calls += n;
    }
    double ownUsPerCall() const { return calls ? double(ownNs) / 1e3 / calls : 0; }
    double serverUsPerCall() const { return calls ? double(serverNs) / 1e3 / calls : 0; }
};

inline const Column *findColumn(const std::vector<Column> &columns, const QString &key)
{
    for (const Column &c : columns) {
        if (c.key == key)
            return &c;
    }
    return nullptr;
}

// The floor clients of one server, connected, for as long as the object lives.
class Floors
{
public:
    // `call` and `listen` are the engine's frames (2026-07-28 only; `listen` may be empty).
    Floors(const QString &endpoint, bool modern, const WireFrame &call, const WireFrame &listen)
        : m_modern(modern)
    {
        if (!modern) {
            addNam(u"QNAM alone"_s, u"nam"_s, std::make_unique<NamClient>(endpoint, false));
            addRaw(u"raw floor"_s, u"raw"_s, std::make_unique<RawHttpClient>(endpoint));
            return;
        }
        using Post = NamClient::Post;
        if (!listen.isEmpty()) {
            auto threaded = std::make_unique<ThreadedNamClient>([=] {
                auto nam = std::make_unique<NamClient>(endpoint, true, Post::AsTheEngine);
                nam->setFrame(call);
                nam->openListen(listen, 900'001);
                return nam;
            });
            m_columns.push_back({u"QNAM as the engine, listen, own thread"_s,
                                 u"nam-engine-listen-thread"_s, echoBlock(threaded.get())});
            m_threaded.push_back(std::move(threaded));
            auto nam = std::make_unique<NamClient>(endpoint, true, Post::AsTheEngine);
            nam->setFrame(call);
            nam->openListen(listen, 900'000);
            addNam(u"QNAM, posted as the engine, listen open"_s, u"nam-engine-listen"_s,
                   std::move(nam));
        }
        auto asEngine = std::make_unique<NamClient>(endpoint, true, Post::AsTheEngine);
        asEngine->setFrame(call);
        addNam(u"QNAM, posted as the engine"_s, u"nam-engine"_s, std::move(asEngine));
        auto bare = std::make_unique<NamClient>(endpoint, true);
        bare->setFrame(call);
        addNam(u"QNAM alone (engine's frame)"_s, u"nam"_s, std::move(bare));
        addNam(u"QNAM alone, minimal _meta"_s, u"nam-minimal"_s,
               std::make_unique<NamClient>(endpoint, true));
        auto raw = std::make_unique<RawHttpClient>(endpoint);
        raw->setModern(true);
        raw->setFrame(call);
        addRaw(u"raw floor (engine's frame)"_s, u"raw"_s, std::move(raw));
        auto minimal = std::make_unique<RawHttpClient>(endpoint);
        minimal->setModern(true);
        addRaw(u"raw floor, minimal _meta"_s, u"raw-minimal"_s, std::move(minimal));
    }

    const std::vector<Column> &columns() const { return m_columns; }

    void close()
    {
        if (!m_modern) {
            for (const auto &raw : m_raw)
                raw->deleteSession();
        }
        for (const auto &nam : m_nam)
            nam->close();
        for (const auto &threaded : m_threaded)
            threaded->close();
    }

private:
    void addNam(const QString &name, const QString &key, std::unique_ptr<NamClient> client)
    {
        client->initialize();
        m_columns.push_back({name, key, echoBlock(client.get())});
        m_nam.push_back(std::move(client));
    }
    void addRaw(const QString &name, const QString &key, std::unique_ptr<RawHttpClient> client)
    {
        if (!m_modern)
            client->initialize();
        m_columns.push_back({name, key, echoBlock(client.get())});
        m_raw.push_back(std::move(client));
    }
    // n calls of client->echo(id), each with the next id of its own.
    template <typename Client> static Column::Block echoBlock(Client *client)
    {
        return [client, id = 0](int n, std::vector<double> *into) mutable {
            for (int i = 0; i < n; ++i) {
                const double t = client->echo(++id);
                if (into)
                    into->push_back(t);
            }
        };
    }

    bool m_modern;
    std::vector<Column> m_columns;
    std::vector<std::unique_ptr<NamClient>> m_nam;
    std::vector<std::unique_ptr<RawHttpClient>> m_raw;
    std::vector<std::unique_ptr<ThreadedNamClient>> m_threaded;
};

// Every column's figures, and the SDK client's server CPU (its own CPU is another process's).
inline void printColumns(const std::vector<Column> &columns, double sdkServerUs)
{
    out(u"  side by side, CPU time per call (us): this process, all its threads / the server"_s);
    out(u"                                              p50      p99     mean   CPU here  server CPU"_s);
    for (const Column &c : columns)
        out(u"  "_s + c.name.leftJustified(40) + num(percentile(c.us, 50), 9) +
            num(percentile(c.us, 99), 9) + num(mean(c.us), 9) + num(c.ownUsPerCall(), 11) +
            num(c.serverUsPerCall(), 12));
    out(u"  "_s + u"SDK client (its own process, after)"_s.leftJustified(40) +
        u"        -        -        -          -"_s + num(sdkServerUs, 12));
}

// Where Sonde's p50 above the minimal raw floor goes, neighbour by neighbour (2026-07-28).
inline void printShares(const std::vector<Column> &columns)
{
    const auto share = [&](const QString &what, const QString &from, const QString &to) {
        const Column *a = findColumn(columns, from), *b = findColumn(columns, to);
        if (!a || !b)
            return;
        out(u"    "_s + what.leftJustified(58) +
            num(percentile(b->us, 50) - percentile(a->us, 50), 8) + u" us p50"_s +
            num(b->ownUsPerCall() - a->ownUsPerCall(), 8) + u" us CPU here"_s +
            num(b->serverUsPerCall() - a->serverUsPerCall(), 8) + u" us server CPU"_s);
    };
    const bool listen = findColumn(columns, u"nam-engine-listen-thread"_s);
    out(u"  Sonde's p50 above the minimal raw floor, share by share (differences of neighbours):"_s);
    share(u"the engine's _meta and headers, at the server"_s, u"raw-minimal"_s, u"raw"_s);
    share(u"Qt's HTTP stack"_s, u"raw"_s, u"nam"_s);
    share(u"posting as the engine does (one-shot body, attributes)"_s, u"nam"_s, u"nam-engine"_s);
    if (listen) {
        share(u"the open listen stream beside the calls"_s, u"nam-engine"_s,
              u"nam-engine-listen"_s);
        share(u"the hops to a core thread and back"_s, u"nam-engine-listen"_s,
              u"nam-engine-listen-thread"_s);
    }
    share(u"the engine's own work"_s, listen ? u"nam-engine-listen-thread"_s : u"nam-engine"_s,
          u"sonde"_s);
    share(u"keeping each HTTP exchange (the window, --history, --transcript)"_s, u"sonde"_s,
          u"sonde-har"_s);
}

} // namespace SondeBench

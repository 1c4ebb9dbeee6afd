// SPDX-License-Identifier: MIT
// sdk-modern-echo.mjs URL CALLS WARMUP: the official TypeScript SDK v2 client's warm echo
// latency in the 2026-07-28 (modern, sessionless) era, the baseline to put beside Sonde's
// modern mode. Same contract, loop and output as sdk-echo.mjs (sdk-echo-loop.mjs), so the
// benchmark reads both the same way. One Client, calls strictly sequential.
// The era is pinned, not negotiated: connect() fails unless the server offers 2026-07-28
// (tests/fixtures/v2-server.mjs does; server-everything does not).
// connect() sends the one server/discover; after it each call is one POST (checked through a
// counting proxy: no tools/list, no session), and the warm-up keeps the connection and the JIT
// out of the figures.
// The SDK is the copy pinned in tests/node_modules; bare imports resolve there from this
// file's directory, whatever the working directory.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { benchArguments, printFigures, timeEchoes } from './sdk-echo-loop.mjs';

const { url, calls, warmUp } = benchArguments('sdk-modern-echo');
const client = new Client({ name: 'sonde-bench-sdk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(url));

const us = await timeEchoes(client, calls, warmUp);

// No session to end in this era: closing the client is all.
await client.close();
printFigures(us);

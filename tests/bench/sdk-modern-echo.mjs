// SPDX-License-Identifier: MIT
// sdk-modern-echo.mjs URL CALLS WARMUP: the official TypeScript SDK v2 client's warm echo
// latency in the 2026-07-28 (modern, sessionless) era, the baseline to put beside Sonde's
// modern mode. Same contract and output as sdk-echo.mjs (one JSON line: p50_us, p99_us,
// mean_us), so the benchmark reads both the same way. One Client, calls strictly sequential.
// The era is pinned, not negotiated: connect() fails unless the server offers 2026-07-28
// (tests/fixtures/v2-server.mjs does; server-everything does not).
// The SDK is the copy pinned in tests/node_modules; bare imports resolve there from this
// file's directory, whatever the working directory.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, callsArg, warmUpArg] = process.argv.slice(2);
const calls = Number(callsArg);
const warmUp = Number(warmUpArg);
if (!url || !(calls >= 1) || !(warmUp >= 0)) {
  console.error('usage: node sdk-modern-echo.mjs URL CALLS WARMUP');
  process.exit(2);
}
// Same rule as the C++ side: benchmark traffic stays on this machine.
if (new URL(url).hostname !== '127.0.0.1') {
  console.error(`sdk-modern-echo: refusing ${url}: only 127.0.0.1 is allowed`);
  process.exit(2);
}

const client = new Client({ name: 'sonde-bench-sdk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const echo = async () => {
  const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  // A fast error is not a fast echo.
  if (result.isError || result.content?.[0]?.text !== 'Echo: hi')
    throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
};

// connect() sends the one server/discover; after it each call is one POST (checked through a
// counting proxy: no tools/list, no session), and the warm-up keeps the connection and the JIT
// out of the figures.
for (let i = 0; i < warmUp; ++i)
  await echo();
const us = [];
for (let i = 0; i < calls; ++i) {
  const start = process.hrtime.bigint();
  await echo();
  us.push(Number(process.hrtime.bigint() - start) / 1000);
}

// No session to end in this era: closing the client is all.
await client.close();

// Nearest-rank, like the C++ side, so both columns use the same definition.
us.sort((a, b) => a - b);
const percentile = (p) => us[Math.min(Math.max(Math.ceil((p / 100) * us.length), 1), us.length) - 1];
const mean = us.reduce((a, b) => a + b, 0) / us.length;
console.log(JSON.stringify({ p50_us: percentile(50), p99_us: percentile(99), mean_us: mean }));

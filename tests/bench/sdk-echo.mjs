// SPDX-License-Identifier: MIT
// sdk-echo.mjs URL CALLS WARMUP: the official TypeScript SDK client's warm echo latency, the
// baseline sonde-bench-http prints beside Sonde's engine. One Client, one session, calls
// strictly sequential, so each figure is one round trip and not a share of a pipelined batch.
// The SDK is the copy server-everything pulls into tests/node_modules; bare imports resolve
// there from this file's directory, whatever the working directory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, callsArg, warmUpArg] = process.argv.slice(2);
const calls = Number(callsArg);
const warmUp = Number(warmUpArg);
if (!url || !(calls >= 1) || !(warmUp >= 0)) {
  console.error('usage: node sdk-echo.mjs URL CALLS WARMUP');
  process.exit(2);
}
// Same rule as the C++ side: benchmark traffic stays on this machine.
if (new URL(url).hostname !== '127.0.0.1') {
  console.error(`sdk-echo: refusing ${url}: only 127.0.0.1 is allowed`);
  process.exit(2);
}

const client = new Client({ name: 'sonde-bench-sdk', version: '1' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const echo = async () => {
  const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  // A fast error is not a fast echo.
  if (result.isError || result.content?.[0]?.text !== 'Echo: hi')
    throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
};

for (let i = 0; i < warmUp; ++i)
  await echo();
const us = [];
for (let i = 0; i < calls; ++i) {
  const start = process.hrtime.bigint();
  await echo();
  us.push(Number(process.hrtime.bigint() - start) / 1000);
}

// Ends the session with DELETE, as Sonde's engine does on shutdown.
await transport.terminateSession();
await client.close();

// Nearest-rank, like the C++ side, so both columns use the same definition.
us.sort((a, b) => a - b);
const percentile = (p) => us[Math.min(Math.max(Math.ceil((p / 100) * us.length), 1), us.length) - 1];
const mean = us.reduce((a, b) => a + b, 0) / us.length;
console.log(JSON.stringify({ p50_us: percentile(50), p99_us: percentile(99), mean_us: mean }));

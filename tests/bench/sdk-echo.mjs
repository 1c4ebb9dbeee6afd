// SPDX-License-Identifier: MIT
// sdk-echo.mjs URL CALLS WARMUP: the official TypeScript SDK client's warm echo latency, the
// baseline sonde-bench-http prints beside Sonde's engine. One Client, one session, calls
// strictly sequential, so each figure is one round trip and not a share of a pipelined batch.
// The SDK is the copy server-everything pulls into tests/node_modules; bare imports resolve
// there from this file's directory, whatever the working directory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchArguments, printFigures, timeEchoes } from './sdk-echo-loop.mjs';

const { url, calls, warmUp } = benchArguments('sdk-echo');
const client = new Client({ name: 'sonde-bench-sdk', version: '1' });
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport);

const us = await timeEchoes(client, calls, warmUp);

// Ends the session with DELETE, as Sonde's engine does on shutdown.
await transport.terminateSession();
await client.close();
printFigures(us);

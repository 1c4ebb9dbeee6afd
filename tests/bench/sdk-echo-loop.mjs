// SPDX-License-Identifier: MIT
// The timing loop the SDK baselines share (sdk-echo.mjs: SDK v1, 2025-11-25 session;
// sdk-modern-echo.mjs: SDK v2, 2026-07-28), so both columns of the benchmark are measured and
// printed the same way: URL CALLS WARMUP from the command line, calls strictly sequential,
// each figure one round trip, then one JSON line with p50_us, p99_us and mean_us.

// The command line, checked: exits 2 with the usage for a mistake or a URL off this machine.
export function benchArguments(script) {
  const [url, callsArg, warmUpArg] = process.argv.slice(2);
  const calls = Number(callsArg);
  const warmUp = Number(warmUpArg);
  if (!url || !(calls >= 1) || !(warmUp >= 0)) {
    console.error(`usage: node ${script}.mjs URL CALLS WARMUP`);
    process.exit(2);
  }
  // Same rule as the C++ side: benchmark traffic stays on this machine.
  if (new URL(url).hostname !== '127.0.0.1') {
    console.error(`${script}: refusing ${url}: only 127.0.0.1 is allowed`);
    process.exit(2);
  }
  return { url: new URL(url), calls, warmUp };
}

// Times `calls` echo calls on a connected client after `warmUp` untimed ones; microseconds.
export async function timeEchoes(client, calls, warmUp) {
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
  return us;
}

// Nearest-rank, like the C++ side, so both columns use the same definition.
export function printFigures(us) {
  us.sort((a, b) => a - b);
  const percentile = (p) => us[Math.min(Math.max(Math.ceil((p / 100) * us.length), 1), us.length) - 1];
  const mean = us.reduce((a, b) => a + b, 0) / us.length;
  console.log(JSON.stringify({ p50_us: percentile(50), p99_us: percentile(99), mean_us: mean }));
}

// SPDX-License-Identifier: MIT
// The floor for sonde-bench-auth: the exchange from the first 401 to the first authorized
// answer, done by plain HTTP requests with nothing else (Node's fetch, no SDK, no checks
// beyond what the next request needs): the challenge, the protected resource metadata, the
// authorization server metadata, dynamic registration, the authorize redirect (read, not
// followed), the token, and the call again with the token. Prints one JSON line:
// {"runs": N, "p50_ms": .., "p90_ms": .., "min_ms": ..}.
// usage: node auth-floor.mjs URL RUNS
import { createHash, randomBytes } from 'node:crypto';

const [url, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 20);
const body = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {},
            clientInfo: { name: 'auth-floor', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json',
                     accept: 'application/json, text/event-stream' };
const b64url = (b) => b.toString('base64url');

async function once() {
  const t0 = performance.now();
  const refused = await fetch(url, { method: 'POST', headers: mcpHeaders, body });
  await refused.arrayBuffer();
  if (refused.status !== 401) throw new Error(`expected 401, got ${refused.status}`);
  const challenge = refused.headers.get('www-authenticate') ?? '';
  const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge)[1];
  const scope = /scope="([^"]+)"/.exec(challenge)?.[1];
  const prm = await (await fetch(prmUrl)).json();
  const issuer = new URL(prm.authorization_servers[0]);
  const path = issuer.pathname === '/' ? '' : issuer.pathname;
  const as = await (await fetch(
    `${issuer.origin}/.well-known/oauth-authorization-server${path}`)).json();
  const redirectUri = 'http://127.0.0.1:1/callback';
  const client = await (await fetch(as.registration_endpoint, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'auth-floor', redirect_uris: [redirectUri],
                           grant_types: ['authorization_code', 'refresh_token'],
                           response_types: ['code'], token_endpoint_auth_method: 'none',
                           application_type: 'native' }) })).json();
  const verifier = b64url(randomBytes(32));
  const challengeS256 = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(16));
  const authorize = new URL(as.authorization_endpoint);
  for (const [k, v] of Object.entries({
    response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri,
    code_challenge: challengeS256, code_challenge_method: 'S256', state,
    resource: prm.resource, ...(scope ? { scope } : {}) }))
    authorize.searchParams.set(k, v);
  const redirect = await fetch(authorize, { redirect: 'manual' });
  await redirect.arrayBuffer();
  const code = new URL(redirect.headers.get('location')).searchParams.get('code');
  const token = await (await fetch(as.token_endpoint, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri,
                                client_id: client.client_id, code_verifier: verifier,
                                resource: prm.resource }) })).json();
  const answered = await fetch(url, {
    method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${token.access_token}` },
    body });
  await answered.arrayBuffer();
  if (answered.status !== 200) throw new Error(`expected 200 with the token, got ${answered.status}`);
  return performance.now() - t0;
}

const times = [];
await once(); // warm-up: the connection and the JIT, as the client's warm-up run
for (let i = 0; i < runs; ++i) times.push(await once());
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(JSON.stringify({ runs, p50_ms: at(0.5), p90_ms: at(0.9), min_ms: times[0] }));

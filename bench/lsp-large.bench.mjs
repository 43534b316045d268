// Language server on 1 MB documents, as a person types in them: through a real LSP client over stdio
// against the built bin, for a filter (`.logfilter`) and a ruleset (`*.ruleset.json`) of about 1 MB each.
//   diagnostics: keystrokes typed 60 ms apart (a quick typist; each is an incremental didChange), the time
//     from the last keystroke to the diagnostics of that version (goal ≤ 500 ms, median of the rounds);
//   completion: requests at the edited line between keystrokes, their latency (goal p95 ≤ 100 ms).
// A fixed loop is timed before and after: this machine's speed swings several-fold within a run.
// Run after `npm run build`: `node bench/lsp-large.bench.mjs` (also `npm run bench -- lsp`).
import { machineSpeed } from './machine-speed.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const rpc = require('vscode-languageserver-protocol/node');
const bin = path.join(root, 'packages/language-server/bin/logfilter-language-server.cjs');
if (!existsSync(path.join(root, 'packages/language-server/dist/logfilter-language-server.cjs'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const now = () => performance.now();
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const proc = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
const waiting = new Map();
conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
  const key = `${p.uri}@${p.version}`;
  waiting.get(key)?.();
  waiting.delete(key);
});
conn.onRequest(rpc.ConfigurationRequest.type, (p) => p.items.map(() => null));
conn.onRequest(rpc.RegistrationRequest.type, () => null);
conn.listen();
const published = (uri, v) => new Promise((resolve) => waiting.set(`${uri}@${v}`, resolve));
await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
await conn.sendNotification(rpc.InitializedNotification.type, {});

const speed = machineSpeed();
speed.time(3);

let version = 1;
const ROUNDS = 5;
const KEYSTROKES = 12;

/** Opens `text`, then ROUNDS times types KEYSTROKES characters at `at` (a position in the middle), asking for completion between them. */
async function scenario(name, uri, languageId, text, at, typed) {
  const v0 = version++;
  const opened = published(uri, v0);
  const t0 = now();
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: v0, text } });
  await opened;
  const openMs = now() - t0;
  const diagnostics = [];
  const completion = [];
  let character = at.character;
  for (let round = 0; round < ROUNDS; round++) {
    let last = 0;
    let done;
    let t2 = 0;
    for (let k = 0; k < KEYSTROKES; k++) {
      last = version++;
      // the waiter is set before the keystroke: an answer may come before the next line runs
      if (k === KEYSTROKES - 1) done = published(uri, last).then(() => now() - t2);
      if (k === KEYSTROKES - 1) t2 = now();
      const ch = typed[k % typed.length];
      await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: last },
        contentChanges: [{ range: { start: { line: at.line, character }, end: { line: at.line, character } }, text: ch }],
      });
      character += ch.length;
      const t1 = now();
      await conn.sendRequest(rpc.CompletionRequest.type, { textDocument: { uri }, position: { line: at.line, character }, context: { triggerKind: 1 } });
      completion.push(now() - t1);
      await sleep(60);
    }
    diagnostics.push(await done);
    await sleep(300);
  }
  await conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  const f = (x) => x.toFixed(1);
  console.log(
    `${name} (${(text.length / 1e6).toFixed(2)} MB): diagnostics after the last keystroke median ${f(median(diagnostics))} ms, max ${f(Math.max(...diagnostics))} ms (${ROUNDS} rounds of ${KEYSTROKES} keystrokes 60 ms apart; goal ≤ 500 ms); ` +
      `completion p95 ${f(p95(completion))} ms, median ${f(median(completion))} ms, max ${f(Math.max(...completion))} ms (${completion.length} requests; goal p95 ≤ 100 ms); first diagnostics after opening ${f(openMs)} ms`,
  );
}

const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]\n';
const big = ('or ' + line).repeat(Math.ceil(1_000_000 / (line.length + 3))).slice(3);
const mid = Math.floor(big.split('\n').length / 2);
await scenario('filter', 'file:///bench/big.logfilter', 'logfilter', big, { line: mid, character: 0 }, ['B', 'o', 't', 'S', 'c', 'o', 'r', 'e', ' ', '<', ' ', '5']);

// every expression different, as in a real ruleset (identical ones would be checked once)
const rules = [];
let size = 0;
while (size < 1_000_000) {
  const rule = { action: 'block', expression: `http.host eq "api${rules.length}.example.com" and ip.src in {192.0.2.0/24 198.51.100.${rules.length % 256}} and not ssl` };
  rules.push(rule);
  size += JSON.stringify(rule).length + 6;
}
const ruleset = JSON.stringify({ phase: 'http_request_firewall_custom', rules }, null, 2);
const exprLine = ruleset.split('\n').findIndex((l, i, all) => i > all.length / 2 && l.includes('"expression"'));
const exprAt = ruleset.split('\n')[exprLine].indexOf('http.host');
await scenario('ruleset JSON', 'file:///bench/big.ruleset.json', 'json', ruleset, { line: exprLine, character: exprAt }, ['s', 's', 'l', ' ', 'o', 'r', ' ']);

const exited = new Promise((r) => proc.on('exit', r));
await conn.sendRequest(rpc.ShutdownRequest.type);
await conn.sendNotification(rpc.ExitNotification.type);
await exited;
conn.dispose();
speed.time(3);
console.log(`  machine speed in this run: a fixed loop took ${speed.range()[0].toFixed(0)} to ${speed.range()[1].toFixed(0)} ms of CPU (3 times before, 3 after)`);

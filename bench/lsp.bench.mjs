// Language server speed (issue 4), measured through a real LSP client over stdio against the built bin:
//   p95 latency of completion and of diagnostics (didChange → publishDiagnostics) on a 1000-byte document
//   (goal ≤ 5 ms each); the longest wait of small requests while a 1 MB document is opened, edited,
//   formatted and highlighted (goal ≤ 500 ms); server memory (RSS) after opening 100 documents.
// Run after `npm run build`: `node bench/lsp.bench.mjs`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

const proc = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
const waiting = new Map(); // `${uri}@${version}` → resolve
conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
  const key = `${p.uri}@${p.version}`;
  waiting.get(key)?.();
  waiting.delete(key);
});
conn.onRequest(rpc.ConfigurationRequest.type, (p) => p.items.map(() => null));
conn.onRequest(rpc.RegistrationRequest.type, () => null);
conn.listen();

const now = () => performance.now();
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let version = 1;
const published = (uri, v) => new Promise((resolve) => waiting.set(`${uri}@${v}`, resolve));
async function open(uri, text) {
  const v = version++;
  const done = published(uri, v);
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'logfilter', version: v, text } });
  return done;
}

await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
await conn.sendNotification(rpc.InitializedNotification.type, {});

// a realistic 1000-byte document
const conds = [
  'ClientRequestHost == "api.example.com"',
  'EdgeResponseStatus >= 500',
  'ClientCountry in ["us", "ca", "de", "fr", "gb"]',
  'ClientRequestPath not startsWith "/static/"',
  'not (BotScore < 30 or ClientRequestMethod == "OPTIONS")',
  'ClientRequestURI not contains ".css"',
  'EdgeResponseContentType not in ["image/png", "image/jpeg"]',
  'CacheCacheStatus != "hit"',
  'ClientRequestUserAgent not contains "bot"',
  'SecurityAction in ["block", "challenge"]',
  'OriginResponseStatus >= 400',
];
let text = `dataset http_requests\n# bench\n${conds.join('\nand ')}\n`;
while (text.length < 1000) text += `and ClientRequestHost != "h${text.length}.example.com"\n`;
text = text.slice(0, text.lastIndexOf('\n', 1000) + 1);
const lines = text.split('\n');
const uri = 'file:///bench/small.logfilter';
await open(uri, text);

// completion at every kind of position, warmed up first
const positions = [];
lines.forEach((l, line) => {
  for (let character = 0; character <= l.length; character += 7) positions.push({ line, character });
});
const complete = (position) => conn.sendRequest(rpc.CompletionRequest.type, { textDocument: { uri }, position });
for (const p of positions) await complete(p);
const completion = [];
for (let round = 0; round < 3; round++) {
  for (const p of positions) {
    const t0 = now();
    await complete(p);
    completion.push(now() - t0);
  }
}

// diagnostics: each edit toggles one value, and waits for the diagnostics of that version
const statusLine = lines.findIndex((l) => l.includes('EdgeResponseStatus >= 500'));
const at = lines[statusLine].indexOf('500');
const diagnostics = [];
for (let i = 0; i < 400; i++) {
  const v = version++;
  const done = published(uri, v);
  const t0 = now();
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: v },
    contentChanges: [{ range: { start: { line: statusLine, character: at }, end: { line: statusLine, character: at + 3 } }, text: i % 2 ? '500' : '"50"' }],
  });
  await done;
  if (i >= 100) diagnostics.push(now() - t0);
}

// 1 MB document: small requests keep flowing while it is opened, edited, formatted and highlighted
const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]\n';
const big = ('or ' + line).repeat(Math.ceil(1_000_000 / (line.length + 3))).slice(3);
const bigUri = 'file:///bench/big.logfilter';
let stop = false;
const waits = [];
const pinger = (async () => {
  while (!stop) {
    const t0 = now();
    await conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 3 } });
    waits.push(now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
})();
const t1 = now();
await open(bigUri, big);
const bigV = version++;
const bigDone = published(bigUri, bigV);
await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
  textDocument: { uri: bigUri, version: bigV },
  contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'BotScore < 5 or ' }],
});
await bigDone;
const bigDiagnosticsMs = now() - t1;
await conn.sendRequest(rpc.DocumentFormattingRequest.type, { textDocument: { uri: bigUri }, options: { tabSize: 2, insertSpaces: true } });
await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument: { uri: bigUri } });
await conn.sendRequest(rpc.CompletionRequest.type, { textDocument: { uri: bigUri }, position: { line: 9000, character: 40 } });
await conn.sendRequest(rpc.FoldingRangeRequest.type, { textDocument: { uri: bigUri } });
stop = true;
await pinger;
await conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: bigUri } });

// memory after opening 100 documents (each checked)
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1]) / 1024;
const before = rss();
await Promise.all(Array.from({ length: 100 }, (_, i) => open(`file:///bench/doc${i}.logfilter`, text.replace('bench', `doc ${i}`))));
const after = rss();

const f = (x) => x.toFixed(2);
console.log(`completion on a ${text.length}-byte document: p95 ${f(p95(completion))} ms, median ${f(median(completion))} ms (${completion.length} requests; goal p95 ≤ 5 ms)`);
console.log(`diagnostics on a ${text.length}-byte document (didChange → publishDiagnostics): p95 ${f(p95(diagnostics))} ms, median ${f(median(diagnostics))} ms (${diagnostics.length} edits; goal p95 ≤ 5 ms)`);
console.log(`1 MB document (${big.length} chars): longest wait of a small request while it was opened, edited, formatted and highlighted ${f(Math.max(...waits))} ms over ${waits.length} requests (goal ≤ 500 ms); its diagnostics after ${f(bigDiagnosticsMs)} ms`);
console.log(`memory: server RSS ${f(before)} MB before, ${f(after)} MB after opening 100 documents (+${f(after - before)} MB)`);

await conn.sendRequest(rpc.ShutdownRequest.type);
await conn.sendNotification(rpc.ExitNotification.type);
await new Promise((r) => proc.on('exit', r));
conn.dispose();

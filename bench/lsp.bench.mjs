// Language server speed, measured through a real LSP client over stdio against the built bin:
//   p95 latency of completion and of diagnostics (didChange → publishDiagnostics) on a 1000-byte document
//   (goal ≤ 5 ms each); how long a 1 MB document blocks the server while it is opened, edited and sent
//   every request, range formatting included (goal: no request waits more than 200 ms behind that work);
//   server memory (RSS) after opening 100 documents.
// Run after `npm run build`: `node bench/lsp.bench.mjs`.
//
// "Blocks" is measured twice. (1) From the server itself: the CPU time its main thread used in each step of
// the 1 MB scenario (Linux's per-thread counters, 10 ms ticks). The main thread cannot block for longer than
// the CPU it uses, unless the machine takes the CPU away, which is no fault of the server; the largest step
// (median of three runs) is the goal's figure. This VM's speed swings several-fold within a run (the same
// step reads 30 ms in one run and 300 ms in the next), so a fixed loop is timed too and printed. (2) From the client: the longest wait of a small request sent every 10 ms during
// that work, beside the same pinger's waits with nothing else to do, in the same run. This machine pauses
// whole processes now and then (an idle node process with a 10 ms timer sees 300-400 ms gaps), so (2)
// mostly measures the machine. (A CPU profile was tried for (1): its own overhead tripled the main thread's
// CPU time, and its sampler starves on two busy cores.)
import { machineSpeed } from './machine-speed.mjs';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { SAMPLE_CONDITIONS } from './sample-filter.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const rpc = require('vscode-languageserver-protocol/node');
const bin = path.join(root, 'packages/language-server/bin/logfilter-language-server.cjs');
if (!existsSync(path.join(root, 'packages/language-server/dist/logfilter-language-server.cjs'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

function startServer() {
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
  const published = (uri, v) => new Promise((resolve) => waiting.set(`${uri}@${v}`, resolve));
  return { proc, conn, published };
}
async function stopServer({ proc, conn }) {
  const exited = new Promise((r) => proc.on('exit', r));
  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  await exited;
  conn.dispose();
}

const now = () => performance.now();
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let version = 1;
async function open({ conn, published }, uri, text) {
  const v = version++;
  const done = published(uri, v);
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'logfilter', version: v, text } });
  return done;
}
async function initialize({ conn }) {
  await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await conn.sendNotification(rpc.InitializedNotification.type, {});
}

const server = startServer();
const { conn, published } = server;
await initialize(server);

// a realistic 1000-byte document
let text = `dataset http_requests\n# bench\n${SAMPLE_CONDITIONS.join('\nand ')}\n`;
while (text.length < 1000) text += `and ClientRequestHost != "h${text.length}.example.com"\n`;
text = text.slice(0, text.lastIndexOf('\n', 1000) + 1);
const lines = text.split('\n');
const uri = 'file:///bench/small.logfilter';
await open(server, uri, text);

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

// memory after opening 100 documents (each checked)
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))[1]) / 1024;
const before = rss();
await Promise.all(Array.from({ length: 100 }, (_, i) => open(server, `file:///bench/doc${i}.logfilter`, text.replace('bench', `doc ${i}`))));
const after = rss();

// The machine's speed, timed now and again after the 1 MB scenario (machine-speed.mjs says why).
const speed = machineSpeed();
speed.time(3);

// 1 MB document, three times: each step's main-thread CPU time, while a pinger measures waits
const cpuMs = () => {
  // utime and stime of the main thread (its thread id is the process id), in clock ticks of 10 ms
  const fields = readFileSync(`/proc/${server.proc.pid}/task/${server.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]\n';
const big = ('or ' + line).repeat(Math.ceil(1_000_000 / (line.length + 3))).slice(3);
const bigUri = 'file:///bench/big.logfilter';
const RUNS = 3;
let stop = false;
let phase = 'nothing else';
const waits = new Map(); // step → waits that started in it, all runs
const cpu = new Map(); // step → main-thread CPU ms, one per run
let phaseCpu = cpuMs();
const step = (name) => {
  const c = cpuMs();
  if (!cpu.has(phase)) cpu.set(phase, []);
  cpu.get(phase).push(c - phaseCpu);
  phaseCpu = c;
  phase = name;
};
const pinger = (async () => {
  while (!stop) {
    const started = phase;
    const t0 = now();
    await conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 3 } });
    if (!waits.has(started)) waits.set(started, []);
    waits.get(started).push(now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
})();
await new Promise((r) => setTimeout(r, 3000));
const bigDiagnosticsMs = [];
const typedDiagnosticsMs = [];
const bigDoc = { textDocument: { uri: bigUri } };
const bigRequests = [
  ['formatting', rpc.DocumentFormattingRequest.type, { ...bigDoc, options: { tabSize: 2, insertSpaces: true } }],
  ['range formatting', rpc.DocumentRangeFormattingRequest.type, { ...bigDoc, range: { start: { line: 9000, character: 0 }, end: { line: 9010, character: 0 } }, options: { tabSize: 2, insertSpaces: true } }],
  ['semantic tokens', rpc.SemanticTokensRequest.type, bigDoc],
  ['completion', rpc.CompletionRequest.type, { ...bigDoc, position: { line: 9000, character: 40 } }],
  ['hover', rpc.HoverRequest.type, { ...bigDoc, position: { line: 9000, character: 3 } }],
  ['folding', rpc.FoldingRangeRequest.type, bigDoc],
  ['code lens', rpc.CodeLensRequest.type, bigDoc],
  ['code actions', rpc.CodeActionRequest.type, { ...bigDoc, range: { start: { line: 9000, character: 0 }, end: { line: 9000, character: 40 } }, context: { diagnostics: [] } }],
  ['logfilter/compile', 'logfilter/compile', bigDoc],
];
for (let run = 0; run < RUNS; run++) {
  const t1 = now();
  step('open');
  await open(server, bigUri, big);
  step('edit');
  const bigV = version++;
  const bigDone = published(bigUri, bigV);
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: bigUri, version: bigV },
    contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'BotScore < 5 or ' }],
  });
  await bigDone;
  bigDiagnosticsMs.push(now() - t1);
  for (const [name, type, params] of bigRequests) {
    step(name);
    await conn.sendRequest(type, params);
  }
  step('typing');
  // keystrokes slower than the diagnostics' pause, as a person types: each one starts a check
  let last;
  for (let k = 0; k < 8; k++) {
    last = version++;
    await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: bigUri, version: last },
      contentChanges: [{ range: { start: { line: 0, character: k }, end: { line: 0, character: k } }, text: 'x' }],
    });
    if (k < 7) await new Promise((r) => setTimeout(r, 250));
  }
  const t2 = now();
  await published(bigUri, last);
  typedDiagnosticsMs.push(now() - t2);
  step('close');
  const closed = published(bigUri, undefined);
  await conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: bigUri } });
  await closed;
  step('between runs');
  await new Promise((r) => setTimeout(r, 200));
}
stop = true;
await pinger;
await stopServer(server);
speed.time(3);

const f = (x) => x.toFixed(2);
console.log(`completion on a ${text.length}-byte document: p95 ${f(p95(completion))} ms, median ${f(median(completion))} ms (${completion.length} requests; goal p95 ≤ 5 ms)`);
console.log(`diagnostics on a ${text.length}-byte document (didChange → publishDiagnostics): p95 ${f(p95(diagnostics))} ms, median ${f(median(diagnostics))} ms (${diagnostics.length} edits; goal p95 ≤ 5 ms)`);
const idle = waits.get('nothing else');
const isStep = ([k]) => k !== 'nothing else' && k !== 'between runs';
// typing is eight events, not one: reported apart, per keystroke
const isOneEvent = (e) => isStep(e) && e[0] !== 'typing';
// per step, the median of the runs: this machine sometimes charges a paused CPU to the thread that ran
const steps = [...cpu].filter(isOneEvent).map(([k, v]) => [k, median(v)]);
const during = [...waits].filter(isStep).flatMap(([, v]) => v);
const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)];
const [worstStep, worstCpu] = steps.reduce((a, b) => (b[1] > a[1] ? b : a));
console.log(`1 MB document (${big.length} chars), opened, edited, sent every request and closed ${RUNS} times: the server's main thread used at most ${worstCpu} ms of CPU in one step (${worstStep}; median of the runs), ${steps.reduce((a, [, v]) => a + v, 0)} ms over these ${steps.length} steps (goal: no request waits > 200 ms behind it); its diagnostics after ${f(median(bigDiagnosticsMs))} ms`);
console.log(`  typing 8 keystrokes 250 ms apart in it: diagnostics of the last version ${f(median(typedDiagnosticsMs))} ms after the last keystroke (median of the runs; a check takes about ${f(median(bigDiagnosticsMs) / 2)} ms); main-thread CPU ${median(cpu.get('typing')) / 8} ms per keystroke`);
console.log(`  main-thread CPU by step, each run: ${[...cpu].filter(isStep).map(([k, v]) => `${k} ${v.join('/')}`).join(', ')} ms`);
console.log(`  a small request every 10 ms meanwhile: longest wait ${f(Math.max(...during))} ms, p99 ${f(p99(during))} ms over ${during.length}; the same with nothing else to do, same run: longest ${f(Math.max(...idle))} ms, p99 ${f(p99(idle))} ms over ${idle.length} (ratio of p99 ${f(p99(during) / p99(idle))}x; this machine pauses processes)`);
console.log(`  longest wait by step: ${[...waits].filter(isStep).map(([k, v]) => `${k} ${f(Math.max(...v))}`).join(', ')} ms`);
console.log(`  machine speed in this run: a fixed loop took ${f(speed.range()[0])} to ${f(speed.range()[1])} ms of CPU (3 times before the 1 MB scenario, 3 after)`);
console.log(`memory: server RSS ${f(before)} MB before, ${f(after)} MB after opening 100 documents (+${f(after - before)} MB)`);

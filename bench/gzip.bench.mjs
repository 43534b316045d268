/**
 * Gzip: how close `logfilter eval` comes to the decompression limit, and which inflater gives that limit.
 *
 *   limit      `gzip -dc` of the bench's gzip tree (the eval bench's files), split over both cores: two
 *              processes, each on half of the files, output discarded. The goal: eval within 1.2× of it.
 *   node zlib  the same split, each half inflated with Node's zlib (`gunzipSync`) in its own process.
 *   igzip      `igzip -dc` (ISA-L's own command, Debian's package isal) split the same way, where installed.
 *   eval       `logfilter eval F1 DIR --json`, whole process (F1: the filter that reads least of each line),
 *              with the inflater it picks (ISA-L's where @logfilter/native-inflate is built) and with Node's
 *              zlib (LOGFILTER_INFLATE=zlib).
 *   inflaters  single-thread CPU throughput of each inflater on the same files, against Node's zlib as eval
 *              drives it (whole files into one buffer reused from file to file: packages/cli/src/eval/inflate.ts;
 *              a fresh output buffer per file, as `gunzipSync` and the registry's inflaters return, costs page
 *              faults on every file and flatters the others), and those from the npm registry when installed
 *              (not dependencies of the repository: install them in a scratch directory, `npm install fflate
 *              pako @hazae41/foras wasm-gzip wasm-flate`, and pass `--inflaters DIR`).
 *
 *   npm run build && node bench/gzip.bench.mjs [--quick] [--mb 200] [--files 24] [--rounds 5] [--inflaters DIR]
 *
 * Interleaved rounds, medians, each command its own process; the load average is printed with the figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { arg, bin, FILTERS, gzipTree, listGz, measure, median, plainData, requireBuild, root, writeFilterFiles } from './workloads.mjs';

requireBuild('gzip.bench');
const QUICK = process.argv.includes('--quick');
const MB = Number(arg('mb', QUICK ? '40' : '200'));
const FILES = Number(arg('files', QUICK ? '8' : '24'));
const ROUNDS = Number(arg('rounds', QUICK ? '3' : '5'));
const dir = gzipTree(plainData(MB, 42), MB, FILES);
const files = listGz(dir);
const half = Math.ceil(files.length / 2);
const halves = [files.slice(0, half), files.slice(half)];
const filter = writeFilterFiles()['F1 eq host'];
const raw = files.map((f) => fs.readFileSync(f));
const outBytes = raw.reduce((n, b) => n + zlib.gunzipSync(b).length, 0);
const load = [os.loadavg()[0]];

/** Runs a command with its output discarded (collecting `gzip -dc`'s output would measure the collector). */
const quiet = (cmd, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });

/** Both halves at once, each in its own process; the wall time of the slower. */
async function split(cmd, argsOf) {
  const t = performance.now();
  await Promise.all(halves.map((h) => quiet(cmd, argsOf(h))));
  return (performance.now() - t) / 1000;
}
const nodeInflate = (list) => ['-e', `const fs=require('fs'),z=require('zlib');for(const f of ${JSON.stringify(list)})z.gunzipSync(fs.readFileSync(f))`];

// The registry's inflaters, where installed (each gunzips a whole file to a byte array): resolved from the
// repository, or from `--inflaters DIR` (a scratch directory where they were installed).
const require = createRequire(path.join(path.resolve(arg('inflaters', root)), 'package.json'));
const { gunzipInto } = await import(pathToFileURL(path.join(root, 'packages/cli/dist/eval/inflate.js')).href);
let reused = Buffer.alloc(0);
const room = (n) => (reused.length >= n ? reused : (reused = Buffer.allocUnsafe(n)));
const { inflaterInUse } = await import(pathToFileURL(path.join(root, 'packages/cli/dist/eval/native-inflate.js')).href);
const EVAL_ZLIB = "node zlib (eval's path, reused buffer)";
/** `fn` with LOGFILTER_INFLATE set to `value` (undefined: unset), which eval's inflater choice reads at each file. */
const withInflate = (value, fn) => {
  const before = process.env.LOGFILTER_INFLATE;
  if (value === undefined) delete process.env.LOGFILTER_INFLATE;
  else process.env.LOGFILTER_INFLATE = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.LOGFILTER_INFLATE;
    else process.env.LOGFILTER_INFLATE = before;
  }
};
const nativeBuilt = withInflate(undefined, () => inflaterInUse());
const candidates = {
  [EVAL_ZLIB]: async () => (b) => withInflate('zlib', () => gunzipInto(b, room, 64 << 20, b.readUInt32LE(b.length - 4))),
  "ISA-L (native addon, eval's path)": async () => {
    if (nativeBuilt.name !== 'isa-l') throw new Error(nativeBuilt.reason);
    return (b) => withInflate(undefined, () => gunzipInto(b, room, 64 << 20, b.readUInt32LE(b.length - 4)));
  },
  'node zlib (gunzipSync)': async () => (b) => zlib.gunzipSync(b).length,
  'fflate (JS)': async () => {
    const { gunzipSync } = require('fflate');
    return (b) => gunzipSync(b).length;
  },
  'pako (JS)': async () => {
    const { ungzip } = require('pako');
    return (b) => ungzip(b).length;
  },
  '@hazae41/foras (Rust, WebAssembly)': async () => {
    const { Foras, gunzip, Memory } = await import(pathToFileURL(require.resolve('@hazae41/foras')).href);
    await Foras.initBundledOnce();
    return (b) => {
      const m = new Memory(b);
      const out = gunzip(m);
      m.free();
      return out.copyAndDispose().length;
    };
  },
  'wasm-flate (Rust, WebAssembly)': async () => {
    const { gzip_decode_raw } = require('wasm-flate');
    return (b) => gzip_decode_raw(b).length;
  },
  'wasm-gzip (Rust libflate, WebAssembly)': async () => {
    const pkg = path.dirname(require.resolve('wasm-gzip/package.json'));
    const { default: init, decompress } = await import(pathToFileURL(path.join(pkg, 'wasm_gzip.js')).href);
    await init(fs.readFileSync(path.join(pkg, 'wasm_gzip.wasm')));
    return (b) => decompress(b).length;
  },
};
const inflaters = {};
for (const [name, load] of Object.entries(candidates)) {
  try {
    const f = await load();
    const n = raw.reduce((a, b) => a + f(b), 0);
    if (n !== outBytes) throw new Error(`inflated ${n} bytes, not ${outBytes}`);
    inflaters[name] = f;
  } catch (e) {
    console.log(`${name}: not measured (${e.code === 'MODULE_NOT_FOUND' || e.code === 'ERR_MODULE_NOT_FOUND' ? 'not installed' : e.message})`);
  }
}

const igzip = ['/usr/bin/igzip', '/usr/local/bin/igzip'].find((p) => fs.existsSync(p));
const t = { limit: [], 'node zlib': [], igzip: [], eval: [], 'eval zlib': [] };
for (const k in inflaters) t[k] = [];
for (let r = 0; r < ROUNDS; r++) {
  t.limit.push(await split('gzip', (h) => ['-dc', ...h]));
  t['node zlib'].push(await split(process.execPath, nodeInflate));
  if (igzip) t.igzip.push(await split(igzip, (h) => ['-dc', ...h]));
  t.eval.push((await withInflate(undefined, () => measure(process.execPath, [bin, 'eval', filter, dir, '--json']))).seconds);
  t['eval zlib'].push((await withInflate('zlib', () => measure(process.execPath, [bin, 'eval', filter, dir, '--json']))).seconds);
  // CPU time of this process (one thread): the machine's other load does not count, as it would in wall time.
  for (const [k, f] of Object.entries(inflaters)) {
    const t0 = process.cpuUsage();
    try {
      for (const b of raw) f(b);
    } catch (e) {
      // wasm-flate's memory fills up after a few rounds: its figure is dropped, with the reason.
      console.log(`${k}: failed in round ${r + 1} (${e.message}); not measured`);
      delete inflaters[k];
      continue;
    }
    const used = process.cpuUsage(t0);
    t[k].push((used.user + used.system) / 1e6);
  }
}
load.push(os.loadavg()[0]);

const mbps = (s) => `${(outBytes / 1e6 / s).toFixed(0).padStart(5)} MB/s`;
const limit = median(t.limit);
console.log(`${files.length} gzip files, ${(raw.reduce((n, b) => n + b.length, 0) / 1e6).toFixed(1)} MB → ${(outBytes / 1e6).toFixed(1)} MB; medians of ${ROUNDS} rounds (load average ${load.map((l) => l.toFixed(1)).join(' → ')} on ${os.availableParallelism()} cores)`);
console.log(`  limit: gzip -dc split over 2 cores   ${limit.toFixed(2)} s ${mbps(limit)}`);
console.log(`  node zlib split over 2 cores         ${median(t['node zlib']).toFixed(2)} s ${mbps(median(t['node zlib']))}  (${(limit / median(t['node zlib'])).toFixed(2)}× the limit's speed)`);
if (igzip) console.log(`  igzip -dc (ISA-L) split over 2 cores ${median(t.igzip).toFixed(2)} s ${mbps(median(t.igzip))}  (${(limit / median(t.igzip)).toFixed(2)}× the limit's speed)`);
const ev = median(t.eval);
const evz = median(t['eval zlib']);
const using = nativeBuilt.name === 'isa-l' ? 'ISA-L' : `Node's zlib: ${nativeBuilt.reason}`;
console.log(`  logfilter eval F1 (whole process)    ${ev.toFixed(2)} s ${mbps(ev)}  → ${(ev / limit).toFixed(2)}× the limit's time  (goal ≤ 1.2×: ${ev / limit <= 1.2 ? 'met' : 'NOT met'}; inflater: ${using})`);
console.log(`  the same, LOGFILTER_INFLATE=zlib     ${evz.toFixed(2)} s ${mbps(evz)}  → ${(evz / limit).toFixed(2)}× the limit's time  (${(evz / ev).toFixed(2)}× eval's time)`);
console.log('  one thread, each inflater on every file (CPU time):');
const z = median(t[EVAL_ZLIB] ?? [NaN]);
for (const k of Object.keys(inflaters)) {
  const s = median(t[k]);
  console.log(`    ${k.padEnd(40)} ${s.toFixed(2)} s ${mbps(s)}  ${(z / s).toFixed(2)}× node zlib (eval's path)`);
}

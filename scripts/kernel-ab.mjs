// A/B of two line kernels in one process, without a build: each kernel.wat text is assembled as
// scripts/gen-line-kernel.mjs does, and both run $scan over every line of the given NDJSON files (no wanted
// key: the validating scan alone, ~80% of the kernel's time on the bench's F3), round after round with the
// order rotated, so that a machine busy with other work weighs on both alike. Whole-process timings on a
// shared 2-core machine drift by ±10% between runs; this compares CPU time of the same work side by side.
// Every line's verdict must agree (0 not a JSON object, 1 valid, 2 valid with an escaped key): a difference is
// reported with its file and line and exits 1, so a kernel change is checked against the committed one on real
// data before it is timed.
//
//   node scripts/kernel-ab.mjs [--a KERNEL] [--b KERNEL] [--rounds N] [--json] FILE...
//
// KERNEL is a path to a kernel.wat, or git:REV for packages/core/src/eval/kernel.wat at a git revision; --a
// defaults to git:HEAD, --b to the working tree's kernel.wat. Prints each kernel's median and fastest round (CPU
// ms) and the median of the per-round ratios B/A; --json prints the same as one JSON object. Exit codes: 0 the
// verdicts agree, 1 they differ, 2 bad arguments or a kernel that does not assemble.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble, instantiate, layoutValues } from './gen-line-kernel.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const KERNEL = 'packages/core/src/eval/kernel.wat';
// lines are scanned in blocks of about this many bytes, each copied into the kernel's memory untimed (the
// evaluator reads blocks of this order, so the scan runs on bytes in cache, as it does there)
const BLOCK = 256 * 1024;
// the lines' offset in the kernel's memory; the tables below it (filter, slot, keys, out, scratch, stack)
const DATA_AT = 65536;
const PAD = 64;

function fail(message) {
  console.error(`kernel-ab: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opt = { a: 'git:HEAD', b: path.join(root, KERNEL), rounds: 12, json: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--a' || a === '--b') {
      if (i + 1 >= argv.length) fail(`${a} needs a kernel (a kernel.wat path or git:REV)`);
      opt[a.slice(2)] = argv[++i];
    } else if (a === '--rounds') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 1000) fail(`--rounds must be an integer from 1 to 1000, got ${argv[i]}`);
      opt.rounds = n;
    } else if (a === '--json') opt.json = true;
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else opt.files.push(a);
  }
  if (opt.files.length === 0) fail('give at least one NDJSON file');
  return opt;
}

/** The kernel's text: a file, or git:REV for kernel.wat at that revision. */
function kernelText(spec) {
  if (spec.startsWith('git:')) {
    try {
      return execFileSync('git', ['show', `${spec.slice(4)}:${KERNEL}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
    } catch (e) {
      fail(`${spec}: ${String(e.stderr || e.message).trim().split('\n')[0]}`);
    }
  }
  try {
    return readFileSync(spec, 'utf8');
  } catch (e) {
    fail(`${spec}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
}

async function kernel(spec, maxBlock) {
  let bytes;
  try {
    bytes = await assemble(instantiate(kernelText(spec), layoutValues()));
  } catch (e) {
    fail(`${spec} does not assemble: ${String(e.message).split('\n')[0]}`);
  }
  const ex = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  // no wanted key: a zero key filter sends every key away before any hash (init: slots, shift, keys, out,
  // nkeys, filter, scratch); the nesting stack's bit per level fits below the data
  const need = DATA_AT + maxBlock + PAD;
  if (need > ex.memory.buffer.byteLength) ex.memory.grow(Math.ceil((need - ex.memory.buffer.byteLength) / 65536));
  ex.init(1024, 63, 2048, 4096, 0, 0, 8192);
  ex.setStack(16384);
  return ex;
}

/** The files cut into blocks of whole lines, each with its lines' [start, end) offsets (end: the line feed). */
function blocks(files) {
  const out = [];
  for (const file of files) {
    let data;
    try {
      data = readFileSync(file);
    } catch (e) {
      fail(`${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    }
    let line = 1;
    for (let s = 0; s < data.length; ) {
      let e = data.indexOf(10, Math.min(s + BLOCK, data.length - 1));
      e = e < 0 ? data.length : e + 1;
      const bytes = data.subarray(s, e);
      const spans = [];
      const numbers = [];
      for (let p = 0; p < bytes.length; line++) {
        let q = bytes.indexOf(10, p);
        if (q < 0) q = bytes.length;
        // a line of only whitespace is not scanned (the evaluator skips blank lines)
        if (bytes.subarray(p, q).some((c) => c !== 32 && c !== 9 && c !== 13)) spans.push(p, q), numbers.push(line);
        p = q + 1;
      }
      out.push({ file, bytes, spans: Int32Array.from(spans), numbers });
      s = e;
    }
  }
  // the stack needs a bit per nesting level, at most one level per byte of the line
  if (out.some((b) => b.bytes.length / 8 + 2 > DATA_AT - 16384)) fail(`a line is longer than ${(DATA_AT - 16384) * 8} bytes`);
  return out;
}

/** CPU milliseconds of one pass over the blocks, each line's verdict written to `verdicts` (one per line). */
function pass(ex, list, verdicts) {
  const u8 = new Uint8Array(ex.memory.buffer);
  const scan = ex.scan;
  let cpu = 0;
  let k = 0;
  for (const b of list) {
    u8.set(b.bytes, DATA_AT);
    // the byte at a line's end must be below 0x20 (the line feed, or this 0 after a last line without one)
    u8.fill(0, DATA_AT + b.bytes.length, DATA_AT + b.bytes.length + PAD);
    const spans = b.spans;
    const t = process.cpuUsage();
    for (let j = 0; j < spans.length; j += 2) verdicts[k++] = scan(DATA_AT + spans[j], DATA_AT + spans[j + 1]);
    const d = process.cpuUsage(t);
    cpu += (d.user + d.system) / 1000;
  }
  return cpu;
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const opt = parseArgs(process.argv.slice(2));
const list = blocks(opt.files);
const lines = list.reduce((n, b) => n + b.spans.length / 2, 0);
const maxBlock = Math.max(0, ...list.map((b) => b.bytes.length));
const kernels = [await kernel(opt.a, maxBlock), await kernel(opt.b, maxBlock)];
const verdicts = [new Int32Array(lines), new Int32Array(lines)];
const times = [[], []];
for (let r = 0; r < opt.rounds; r++) {
  for (const k of r % 2 ? [1, 0] : [0, 1]) times[k].push(pass(kernels[k], list, verdicts[k]));
  if (r === 0) {
    const at = verdicts[0].findIndex((v, i) => v !== verdicts[1][i]);
    if (at >= 0) {
      let i = at;
      const b = list.find((x) => (i < x.numbers.length ? true : ((i -= x.numbers.length), false)));
      console.error(`kernel-ab: the kernels disagree on ${b.file}:${b.numbers[i]} (A ${verdicts[0][at]}, B ${verdicts[1][at]})`);
      process.exit(1);
    }
  }
}
const counts = [0, 1, 2].map((v) => verdicts[0].filter((x) => x === v).length);
const result = {
  lines,
  verdicts: { notObject: counts[0], valid: counts[1], escapedKey: counts[2] },
  rounds: opt.rounds,
  a: { kernel: opt.a, medianMs: median(times[0]), fastestMs: Math.min(...times[0]) },
  b: { kernel: opt.b, medianMs: median(times[1]), fastestMs: Math.min(...times[1]) },
  ratio: median(times[1].map((t, i) => t / Math.max(times[0][i], 1e-3))),
};
if (opt.json) console.log(JSON.stringify(result));
else {
  console.log(`${lines} lines (${counts[1]} valid, ${counts[2]} with an escaped key, ${counts[0]} not a JSON object), ${opt.rounds} rounds, CPU ms:`);
  for (const k of ['a', 'b']) console.log(`  ${k.toUpperCase()} ${result[k].kernel}: median ${result[k].medianMs.toFixed(1)}, fastest ${result[k].fastestMs.toFixed(1)}`);
  console.log(`  B/A (median of the rounds' ratios): ${result.ratio.toFixed(3)}`);
}

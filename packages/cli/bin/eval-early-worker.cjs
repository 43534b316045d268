// Starts one evaluation worker at the very start of `logfilter eval`, before the eval bundle is loaded and the
// arguments and the filter are read: a worker takes ~40-70 ms to boot (a fresh V8 isolate, Node's internals
// compiled again), and started here that boot overlaps the main thread's own start-up instead of following it.
// The pool (src/eval/pool.ts) adopts it when the inputs call for workers, and ends it otherwise; unref'd, it
// never keeps the process alive. Skipped where it would not be used: one core, `--workers 0`, the DuckDB engine,
// help, a single file, inputs too small for workers.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const KEY = Symbol.for('logfilter.eval.earlyWorker');

/**
 * Several files of at least this much data (gzip counted six times its size) make the evaluation hand whole
 * files to workers at once (src/eval/evaluate.ts has the exact rules).
 */
const FILES_WEIGHT = 12 << 20;
/**
 * A single plain file this large has its ranges shared with the workers (runRanges and PARALLEL_RANGES_MIN_BYTES
 * in src/eval/evaluate.ts, which a test keeps equal to this). A worker started only then joins ~60 ms after the
 * main thread's first range, a fifth of the whole scan of 200 MB; started here, it is ready with it. When the
 * scan stays on one thread (`--print`) the worker is ended, which costs that run a few ms (measured: ~10 ms on
 * 200 MB).
 */
const SINGLE_FILE = 128 << 20;

function wanted(args) {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  if (cores < 2) return false;
  const operands = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-h' || a === '--help' || a === '--engine' || a.startsWith('--engine=')) return false;
    if ((a === '--workers' && args[i + 1] === '0') || a === '--workers=0') return false;
    if (!a.startsWith('-')) operands.push(a);
  }
  // `eval FILTER INPUT...`: a directory, a pattern, several files with data enough, or one large plain file (a
  // flag's value counts as a missing file: a wrong guess only costs a worker that is then ended).
  let weight = 0;
  let files = 0;
  let plain = 0;
  for (const input of operands.slice(1)) {
    if (/[*?[{]/.test(input)) return true;
    try {
      const st = fs.statSync(input);
      if (st.isDirectory()) return true;
      files++;
      const gzip = input.endsWith('.gz');
      weight += st.size * (gzip ? 6 : 1);
      if (!gzip) plain = Math.max(plain, st.size);
    } catch {
      // not a file
    }
  }
  return (files >= 2 && weight >= FILES_WEIGHT) || plain >= SINGLE_FILE;
}

exports.wanted = wanted;
exports.SINGLE_FILE = SINGLE_FILE;

exports.start = function start(args) {
  if (!wanted(args)) return;
  try {
    const { Worker } = require('node:worker_threads');
    const script = path.join(__dirname, '../dist/eval-worker.cjs');
    const worker = new Worker(script);
    worker.unref();
    const early = { worker, script };
    // Until the pool adopts it, an error just means no early worker.
    worker.once('error', () => {
      if (globalThis[KEY] === early) globalThis[KEY] = undefined;
    });
    globalThis[KEY] = early;
  } catch {
    // no early worker; the pool starts its own
  }
};

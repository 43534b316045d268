// `npm run fuzz [-- --count N --seed S]`: the nightly-size fuzz run (10^6 inputs by default) of
// packages/core/test/fuzz/harness.ts, bundled with esbuild from the sources (no build needed) and run in this
// process. Prints progress, calls and time per entry point, the slowest call; exits 1 on any exception, broken
// round trip, evaluator disagreement, or call over 1 s twice in a row (a call over once is timed again: a busy
// machine stalls single calls); the failures are printed with their seed and index.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '1' }, 'limit-ms': { type: 'string', default: '1000' } } });
const count = Number(values.count);
const seed = Number(values.seed);
const limitMs = Number(values['limit-ms']);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed) || !(limitMs > 0)) {
  console.error('usage: node scripts/fuzz.mjs [--count N] [--seed S] [--limit-ms MS]');
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-fuzz-'));
const out = path.join(dir, 'harness.mjs');
try {
  await build({
    entryPoints: [path.join(root, 'packages/core/test/fuzz/harness.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'silent',
  });
  const { runFuzz } = await import(pathToFileURL(out).href);
  const started = Date.now();
  console.log(`fuzzing ${count} inputs, seed ${seed}, limit ${limitMs} ms per call`);
  const report = runFuzz({
    count,
    seed,
    limitMs,
    onProgress: (done) => {
      if (done % 100_000 === 0) console.log(`  ${done} inputs, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
  });
  console.log(`inputs ${report.inputs}, calls ${report.calls}, ${(report.ms / 1000).toFixed(1)} s`);
  for (const [step, v] of Object.entries(report.byStep).sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${step.padEnd(22)} ${String(v.calls).padStart(9)} calls  ${(v.ms / v.calls).toFixed(3)} ms mean`);
  }
  console.log(`slowest call: ${report.slowest.step} ${report.slowest.ms.toFixed(1)} ms (input starts ${JSON.stringify(report.slowest.input.slice(0, 80))})`);
  console.log(`calls over ${limitMs} ms twice in a row: ${report.overLimit} (once only, a stalled machine: ${report.stalls}); failures: ${report.failures.length}`);
  for (const f of report.failures) console.log(JSON.stringify(f));
  process.exitCode = report.failures.length ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Compile speed: median time to compile a 1000-byte filter after warm-up (goal ≤ 100 µs), and the load of the
// core as a library (its bundled entry against its modules file by file). The cold start of `compile-filter`
// is in startup.bench.mjs. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SAMPLE_CONDITIONS } from './sample-filter.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { compile } = await import(pathToFileURL(path.join(root, 'packages/core/dist/logfilter-core.js')).href);

const src = `dataset http_requests\n\n${SAMPLE_CONDITIONS.join('\nand ')}\n`;
const first = compile(src);
if (!first.ok) throw new Error(`bench filter does not compile: ${JSON.stringify(first.diagnostics)}`);

for (let i = 0; i < 2000; i++) compile(src);
const samples = [];
for (let round = 0; round < 50; round++) {
  const n = 200;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) compile(src);
  samples.push(Number(process.hrtime.bigint() - t0) / n / 1000);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const compileUs = median(samples);
console.log(`compile of a ${first.stats.bytes}-byte filter (${first.stats.operators} operators): median ${compileUs.toFixed(1)} µs  (goal ≤ 100 µs: ${compileUs <= 100 ? 'met' : 'NOT met'})`);

const time = (args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};

// Library load: a program that imports @logfilter/core (its package entry, one bundled ESM file) against the
// same modules imported file by file as tsc writes them (Chevrotain and lodash-es then load as hundreds of
// modules), alternated with `node -e 0`.
const entry = (file) => ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(path.join(root, 'packages/core/dist', file)).href)})`];
const runs = { base: [], bundle: [], files: [] };
for (let i = 0; i < 15; i++) {
  runs.base.push(time(['-e', '0']));
  runs.bundle.push(time(entry('logfilter-core.js')));
  runs.files.push(time(entry('index.js')));
}
const [nb, lb, lf] = [median(runs.base), median(runs.bundle), median(runs.files)];
console.log(`library load: node -e 0 ${nb.toFixed(1)} ms, import('@logfilter/core') ${lb.toFixed(1)} ms (+${(lb - nb).toFixed(1)} ms), its modules file by file ${lf.toFixed(1)} ms (+${(lf - nb).toFixed(1)} ms) → ${((lf - nb) / Math.max(1, lb - nb)).toFixed(1)}× less load time`);

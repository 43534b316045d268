// Start-up, whole process: `compile-filter` on a one-condition file as a ratio to `node -e 0` (goal ≤ 1.3×), and
// the fixed cost of `logfilter eval` (a one-line input) over `node -e 0` (goal ≤ 40 ms). The three commands are
// alternated round after round so that all see the same machine state; medians; the load average is printed
// with them, since on a shared machine it decides the figures. Both bins run through the code cache (written by
// the warm-up rounds). Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const dir = mkdtempSync(path.join(tmpdir(), 'lf-startup-'));
const filter = path.join(dir, 'small.logfilter');
const line = path.join(dir, 'one.ndjson');
writeFileSync(filter, 'ClientRequestHost == "example.com"\n');
writeFileSync(line, '{"ClientRequestHost":"example.com"}\n');

const commands = {
  'node -e 0': ['-e', '0'],
  'compile-filter': [path.join(root, 'packages/cli/bin/compile-filter.cjs'), filter],
  'logfilter eval': [path.join(root, 'packages/cli/bin/logfilter.cjs'), 'eval', filter, line],
};
const time = (args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const load = [loadavg()[0]];
for (let i = 0; i < 3; i++) for (const args of Object.values(commands)) time(args);
const rounds = quick ? 7 : 25;
for (let i = 0; i < rounds; i++) for (const [k, args] of Object.entries(commands)) samples[k].push(time(args));
load.push(loadavg()[0]);

const base = median(samples['node -e 0']);
const compile = median(samples['compile-filter']);
const evalMs = median(samples['logfilter eval']);
console.log(`start-up, medians of ${rounds} interleaved rounds (load average ${load.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores):`);
console.log(`  node -e 0        ${base.toFixed(1)} ms`);
console.log(`  compile-filter   ${compile.toFixed(1)} ms → ${(compile / base).toFixed(2)}× node -e 0  (goal ≤ 1.3×: ${compile / base <= 1.3 ? 'met' : 'NOT met'})`);
console.log(`  logfilter eval   ${evalMs.toFixed(1)} ms → fixed cost +${(evalMs - base).toFixed(1)} ms over node -e 0  (goal ≤ 40 ms: ${evalMs - base <= 40 ? 'met' : 'NOT met'})`);

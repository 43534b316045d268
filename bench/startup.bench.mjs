// Start-up, whole process: `compile-filter` on a one-condition file as a ratio to `node -e 0` (goal ≤ 1.3×), and
// the fixed cost of `logfilter eval` (a one-line input) over `node -e 0` (goal ≤ 40 ms). The three commands are
// alternated round after round so that all see the same machine state; medians; the load average is printed
// with them, since on a shared machine it decides the figures. Both bins run through the code cache (written by
// the warm-up rounds). Run after `npm run build`.
//
// Each round runs the three twice: with the caller's environment and with NODE_EXTRA_CA_CERTS unset. Node parses
// that certificate bundle at every start (~50 ms on the development machine, whose environment sets it), which
// makes every command slower by the same amount and so flatters the ratio; users' machines usually do not set
// it, so the goals are judged on the run without it. When the caller does not set it, the two are the same run.
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
const unset = { ...process.env };
delete unset.NODE_EXTRA_CA_CERTS;
const caCerts = process.env.NODE_EXTRA_CA_CERTS;
const environments = caCerts
  ? [
      { name: 'caller', title: `with NODE_EXTRA_CA_CERTS=${caCerts} (the caller's environment; goals judged without it, below)`, env: process.env, judged: false },
      { name: 'unset', title: 'with NODE_EXTRA_CA_CERTS unset (what users have; the goals are judged here)', env: unset, judged: true },
    ]
  : [{ name: 'unset', title: "NODE_EXTRA_CA_CERTS is not set in the caller's environment (the goals are judged here)", env: unset, judged: true }];
const time = (args, env) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = new Map(environments.map((e) => [e.name, Object.fromEntries(Object.keys(commands).map((k) => [k, []]))]));
const load = [loadavg()[0]];
for (let i = 0; i < 3; i++) for (const e of environments) for (const args of Object.values(commands)) time(args, e.env);
const rounds = quick ? 7 : 25;
for (let i = 0; i < rounds; i++) {
  for (const e of environments) for (const [k, args] of Object.entries(commands)) samples.get(e.name)[k].push(time(args, e.env));
}
load.push(loadavg()[0]);

console.log(`start-up, medians of ${rounds} interleaved rounds (load average ${load.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores):`);
for (const e of environments) {
  const s = samples.get(e.name);
  const base = median(s['node -e 0']);
  const compile = median(s['compile-filter']);
  const evalMs = median(s['logfilter eval']);
  const verdict = (ok) => (e.judged ? (ok ? 'met' : 'NOT met') : 'for reference');
  console.log(` ${e.title}:`);
  console.log(`  node -e 0        ${base.toFixed(1)} ms`);
  console.log(`  compile-filter   ${compile.toFixed(1)} ms → ${(compile / base).toFixed(2)}× node -e 0  (goal ≤ 1.3×: ${verdict(compile / base <= 1.3)})`);
  console.log(`  logfilter eval   ${evalMs.toFixed(1)} ms → fixed cost +${(evalMs - base).toFixed(1)} ms over node -e 0  (goal ≤ 40 ms: ${verdict(evalMs - base <= 40)})`);
}

// Emulator with --data: 50 clients on mixed endpoints (reads, rule and job writes) against the
// real bin on 127.0.0.1 for a fixed time: requests/s and latency percentiles (goal: >= 500 req/s, p99 <= 100 ms).
// Then the latency of a write to a 200-rule ruleset with no history and again after 10,000 changes in the same
// zone (goal: flat). Every write is fdatasync'ed before its answer, so the figures depend on the disk. Run after
// `npm run build`; EMU_BENCH_SECONDS and EMU_BENCH_CHANGES shorten it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'packages/emulator/bin/logfilter-emulator.cjs');
const seconds = Number(process.env.EMU_BENCH_SECONDS ?? 10);
const changes = Number(process.env.EMU_BENCH_CHANGES ?? 10_000);
const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-emu-bench-'));
const data = path.join(dir, 'state.json');

async function start(args) {
  const child = spawn(process.execPath, [bin, '--token', 't', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { child, url };
}
async function stopEmulator(child) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
let base;
const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
async function call(method, p, body) {
  const t0 = process.hrtime.bigint();
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 200)}`);
  return { ms, body: text === '' ? undefined : JSON.parse(text) };
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const rules = (n, tag) => Array.from({ length: n }, (_, i) => ({ action: 'block', expression: `http.host eq "${tag}${i}.example"`, description: `${tag}${i}` }));
const phase = 'http_request_firewall_custom';

/** 50 clients, mixed endpoints, each on its own zone and ruleset (10 rules), for `seconds`. */
async function mixed(label) {
  const clients = await Promise.all(
    Array.from({ length: 50 }, async (_, c) => {
      const rs = (await call('POST', `/zones/c${c}/rulesets`, { name: `c${c}`, kind: 'custom', phase, rules: rules(10, `c${c}-`) })).body.result;
      return { zone: `c${c}`, rs: rs.id, rule: rs.rules[0].id, added: [] };
    }),
  );
  const latencies = [];
  const writes = [];
  let stop = false;
  const loop = async (c) => {
    let i = 0;
    while (!stop) {
      const r = Math.random();
      const z = `/zones/${c.zone}`;
      let t;
      if (r < 0.25) t = (await call('GET', `${z}/rulesets/${c.rs}`)).ms;
      else if (r < 0.45) t = (await call('GET', `${z}/rulesets`)).ms;
      else if (r < 0.6) t = (await call('GET', `${z}/logexport/jobs`)).ms;
      else if (r < 0.7) t = (await call('GET', `${z}/page_guard/policies`)).ms;
      else if (r < 0.8) {
        // Add a rule, or take the last added one away: the ruleset stays near 10 rules.
        if (c.added.length < 3) {
          const a = await call('POST', `${z}/rulesets/${c.rs}/rules`, { action: 'log', expression: 'true', description: `a${i}` });
          c.added.push(a.body.result.rules.at(-1).id);
          t = a.ms;
        } else t = (await call('DELETE', `${z}/rulesets/${c.rs}/rules/${c.added.pop()}`)).ms;
        writes.push(t);
      } else if (r < 0.9) {
        t = (await call('PATCH', `${z}/rulesets/${c.rs}/rules/${c.rule}`, { description: `d${i}` })).ms;
        writes.push(t);
      } else {
        t = (await call('POST', `${z}/logexport/jobs`, { destination_conf: 's3://b/p?region=x', name: `j${i}` })).ms;
        writes.push(t);
      }
      latencies.push(t);
      i++;
    }
  };
  const started = process.hrtime.bigint();
  const running = clients.map(loop);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(running);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `50 clients, mixed endpoints, ${label}: ${(latencies.length / elapsed).toFixed(0)} requests/s over ${elapsed.toFixed(1)} s ` +
      `(${latencies.length} requests, ${writes.length} writes); p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms; writes p50 ${pct(writes, 50).toFixed(1)} ms, p99 ${pct(writes, 99).toFixed(1)} ms (goal: >= 500 requests/s, p99 <= 100 ms)`,
  );
}

// The same load without --data first: what this machine gives at all, in the same run.
const memory = await start([]);
base = memory.url;
try {
  await mixed('in memory (baseline)');
} finally {
  await stopEmulator(memory.child);
}
const persisted = await start(['--data', data]);
base = persisted.url;
try {
  await mixed('--data');

  // 2. Writes to a 200-rule ruleset, with no history, then after `changes` changes in the same zone.
  const big = (await call('POST', '/zones/hot/rulesets', { name: 'big', kind: 'custom', phase, rules: rules(200, 'big') })).body.result;
  const small = (await call('POST', '/zones/hot/rulesets', { name: 'small', kind: 'custom', phase, rules: rules(10, 'small') })).body.result;
  const measure = async (label) => {
    const ms = [];
    for (let i = 0; i < 100; i++) ms.push((await call('PATCH', `/zones/hot/rulesets/${big.id}/rules/${big.rules[0].id}`, { description: `${label}${i}` })).ms);
    return ms;
  };
  const fresh = await measure('fresh');
  let done = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (done < changes) {
        done++;
        await call('PATCH', `/zones/hot/rulesets/${small.id}/rules/${small.rules[0].id}`, { description: `h${done}` });
      }
    }),
  );
  const aged = await measure('aged');
  const size = (f) => {
    try {
      return (statSync(f).size / 1e6).toFixed(1);
    } catch {
      return '0';
    }
  };
  console.log(
    `write to a 200-rule ruleset: with no history p50 ${pct(fresh, 50).toFixed(1)} ms p99 ${pct(fresh, 99).toFixed(1)} ms; ` +
      `after ${done} changes in its zone p50 ${pct(aged, 50).toFixed(1)} ms p99 ${pct(aged, 99).toFixed(1)} ms ` +
      `(ratio of medians ${(pct(aged, 50) / pct(fresh, 50)).toFixed(2)}; snapshot ${size(data)} MB, journal ${size(`${data}.journal`)} MB)`,
  );
} finally {
  await stopEmulator(persisted.child);
  rmSync(dir, { recursive: true, force: true });
}

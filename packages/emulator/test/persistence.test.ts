import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundleEmulatorBin } from './bin.js';
import { startEmulator } from '@logfilter/emulator';
import { api, cfRule, own } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'logfilter-emu-'));
const bundle = join(dir, 'logfilter-emulator.cjs');
const children = new Set<ChildProcess>();
afterAll(() => {
  // A failed test must not leave an emulator running.
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  // The real bin, so this test needs no prior build.
  await bundleEmulatorBin(bundle);
}, 180_000);

function run(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (url) => resolve({ child, url }));
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

function exit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return exit(child).then((code) => ({ code, stderr }));
}

// Spawning and bundling are slow on a busy machine: generous limits, and no assertion on time.
describe('persistence with --data', { timeout: 120_000 }, () => {
  it('keeps everything acknowledged across a kill -9 and a restart', async () => {
    const data = join(dir, 'state.json');
    const first = await run(['--port', '0', '--token', 'secret-1', '--data', data]);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/client\/v4$/);
    const call = api(first.url, 'secret-1');
    const rs = (await call('PUT', '/zones/z1/rulesets/phases/http_log_custom_fields/entrypoint', { rules: [cfRule({ req: ['x-id'] })] })).body.result;
    await call('PUT', `/zones/z1/rulesets/${rs.id}`, { rules: [cfRule({ req: ['x-id'], cookies: ['S'] })] });
    const job = (await call('POST', '/zones/z1/logexport/jobs', { destination_conf: 's3://b/p?region=eu-west-1', name: 'kept' })).body.result;
    first.child.kill('SIGKILL');
    await exit(first.child);

    const second = await run(['--port', '0', '--token', 'secret-1', '--data', data]);
    try {
      const again = api(second.url, 'secret-1');
      const got = (await again('GET', `/zones/z1/rulesets/${rs.id}`)).body.result;
      expect(got.version).toBe('2');
      expect(got.rules[0].action_parameters).toEqual({ request_fields: [{ name: 'x-id' }], cookie_fields: [{ name: 'S' }] });
      expect((await again('GET', `/zones/z1/rulesets/${rs.id}/versions`)).body.result).toHaveLength(2);
      expect((await again('GET', `/zones/z1/logexport/jobs/${job.id}`)).body.result).toEqual(job);
      // Ids keep increasing after a restart.
      const next = (await again('POST', '/zones/z1/logexport/jobs', { destination_conf: 's3://b/p?region=eu-west-1' })).body.result;
      expect(next.id).toBeGreaterThan(job.id);
      // No temporary file is left behind.
      expect(readFileSync(data, 'utf8').length).toBeGreaterThan(0);
      expect(existsSync(join(dir, `.state.json.${second.child.pid}.tmp`))).toBe(false);
    } finally {
      second.child.kill('SIGTERM');
      expect(await exit(second.child)).toBe(0);
    }
  });

  it('restores state in the library too', async () => {
    const data = join(dir, 'lib.json');
    const a = await startEmulator({ dataFile: data });
    await api(a.url)('POST', '/zones/z/rulesets', { name: 'n', kind: 'zone', phase: 'http_request_firewall_custom' });
    await a.close();
    const b = await startEmulator({ dataFile: data });
    try {
      expect(own((await api(b.url)('GET', '/zones/z/rulesets')).body.result).map((r: any) => r.name)).toEqual(['n']);
    } finally {
      await b.close();
    }
  });

  it('refuses a data file that is not its own, and bad flags, with one line', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello":');
    const a = await runToExit(['--data', bad]);
    expect(a.code).toBe(1);
    expect(a.stderr.trim().split('\n')).toHaveLength(1);
    const unwritable = await runToExit(['--data', join(dir, 'no-such-dir', 'state.json')]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr.trim().split('\n')).toHaveLength(1);
    expect((await runToExit(['--port', 'abc'])).code).toBe(2);
    expect((await runToExit(['--nope'])).code).toBe(2);
    expect((await runToExit(['--email', 'a@b.c'])).code).toBe(2);
  });
});

describe('kill -9 during 50 concurrent writers', { timeout: 180_000 }, () => {
  it('every acknowledged job and rule is there after the restart, for 3 kills', async () => {
    const data = join(dir, 'kill9.json');
    const acked = { jobs: new Map<number, string>(), rules: new Set<string>() };
    let rulesetId: string | undefined;
    for (let kill = 0; kill < 3; kill++) {
      const emu = await run(['--port', '0', '--token', 't', '--data', data]);
      const call = api(emu.url, 't');
      rulesetId ??= (await call('POST', '/zones/k/rulesets', { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result.id;
      let stop = false;
      let acks = 0;
      // 50 writers, each writing one change after another until the kill; bounded to 20 writes each.
      const writer = async (w: number) => {
        for (let i = 0; i < 20 && !stop; i++) {
          const name = `k${kill}-w${w}-${i}`;
          try {
            if (i % 4 !== 3) {
              const r = await call('POST', '/zones/k/logexport/jobs', { destination_conf: 's3://b/p?region=x', name });
              if (r.status === 200) acked.jobs.set(r.body.result.id, name);
            } else {
              const r = await call('POST', `/zones/k/rulesets/${rulesetId}/rules`, { action: 'log', expression: 'true', description: name });
              if (r.status === 200) acked.rules.add(name);
            }
            acks++;
          } catch {
            return; // the emulator is gone: this write was not acknowledged
          }
        }
      };
      let finished = 0;
      const writers = Array.from({ length: 50 }, (_, w) => writer(w).finally(() => finished++));
      // Kill once 100 writes are acknowledged (or, should the writers all stop first, then: the loop ends either way).
      while (acks < 100 && finished < 50) await new Promise((r) => setTimeout(r, 5));
      emu.child.kill('SIGKILL');
      stop = true;
      await exit(emu.child);
      await Promise.all(writers);
    }
    const last = await run(['--port', '0', '--token', 't', '--data', data]);
    try {
      const call = api(last.url, 't');
      const jobs = (await call('GET', '/zones/k/logexport/jobs?per_page=1000')).body.result as { id: number; name: string }[];
      const byId = new Map(jobs.map((j) => [j.id, j.name]));
      for (const [id, name] of acked.jobs) expect(byId.get(id)).toBe(name);
      expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
      const rules = (await call('GET', `/zones/k/rulesets/${rulesetId}`)).body.result.rules as { description: string }[];
      const descriptions = new Set(rules.map((r) => r.description));
      for (const name of acked.rules) expect(descriptions.has(name)).toBe(true);
      expect(acked.jobs.size + acked.rules.size).toBeGreaterThanOrEqual(300);
    } finally {
      last.child.kill('SIGTERM');
      await exit(last.child);
    }
  });
});

/**
 * The --data file keeps what was acknowledged whatever else happens: reset needs the API's
 * credentials, one emulator per file, writes through a symlink, the whole file checked at start, reads create nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundleEmulatorBin } from './bin.js';
import { readDataFile, startEmulator, StateFileError } from '@logfilter/emulator';
import { api } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'logfilter-emu-data-'));
const bundle = join(dir, 'logfilter-emulator.cjs');
const children = new Set<ChildProcess>();
let n = 0;
const fresh = (name: string) => join(dir, `${n++}-${name}`);
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  await bundleEmulatorBin(bundle);
}, 180_000);

function run(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ child, url }));
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const zonesIn = (file: string) => Object.keys(readDataFile(file)!.zones);

describe('POST /__emulator/reset', () => {
  it('needs the credentials of the API and refuses browser-simple requests; the data file is untouched', async () => {
    const data = fresh('reset.json');
    const emu = await startEmulator({ tokens: ['t'], dataFile: data });
    try {
      const reset = emu.url.replace('/client/v4', '/__emulator/reset');
      await api(emu.url, 't')('POST', '/zones/z1/rulesets', { name: 'n', kind: 'custom', phase: 'http_request_firewall_custom' });
      const before = readFileSync(data, 'utf8');
      // What a web page can send without a preflight: no credentials, a text/plain or form body.
      const plain = await fetch(reset, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
      expect([plain.status, ((await plain.json()) as any).errors[0].code]).toEqual([401, 10000]);
      const form = await fetch(reset, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer t' }, body: 'a=1' });
      expect([form.status, ((await form.json()) as any).errors[0].code]).toEqual([415, 6003]);
      const wrong = await fetch(reset, { method: 'POST', headers: { authorization: 'Bearer nope' } });
      expect([wrong.status, ((await wrong.json()) as any).errors[0].code]).toEqual([403, 10001]);
      expect(readFileSync(data, 'utf8')).toBe(before);
      expect(zonesIn(data)).toEqual(['z1']);
      const ok = await fetch(reset, { method: 'POST', headers: { authorization: 'Bearer t' } });
      expect(ok.status).toBe(200);
      expect(zonesIn(data)).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});

describe('one emulator per data file', { timeout: 120_000 }, () => {
  it('refuses a second start on the same file (also through a link), naming the holder; free again after close', async () => {
    const data = fresh('locked.json');
    const link = fresh('locked-link.json');
    symlinkSync(data, link);
    const first = await startEmulator({ dataFile: data });
    try {
      for (const file of [data, link]) {
        const second = await startEmulator({ dataFile: file }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(second).toBeInstanceOf(StateFileError);
        expect(second!.message).toContain(`process ${process.pid}`);
      }
      // The refusal took nothing: the first one still writes.
      expect((await api(first.url)('POST', '/zones/z/logexport/jobs', { destination_conf: 's3://b/p?region=x' })).status).toBe(200);
    } finally {
      await first.close();
    }
    expect(existsSync(`${data}.lock`)).toBe(false);
    const again = await startEmulator({ dataFile: data });
    await again.close();
  });

  it('the bin exits 1 naming the running holder, and takes over the lock of a killed one', async () => {
    const data = fresh('bin-locked.json');
    const first = await run(['--data', data]);
    const refused = await runToExit(['--data', data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`process ${first.child.pid}`);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(existsSync(`${data}.lock`)).toBe(true); // a kill -9 leaves it: the next start recovers it
    const next = await run(['--data', data]);
    next.child.kill('SIGTERM');
    expect(await new Promise((r) => next.child.once('exit', r))).toBe(0);
    expect(existsSync(`${data}.lock`)).toBe(false);
  });

  it('recovers a stale lock of a process that is gone, and respects one of another host', async () => {
    const data = fresh('stale.json');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${data}.lock`, JSON.stringify({ pid: gone, host: hostname(), started: '2026-01-01T00:00:00Z' }));
    const emu = await startEmulator({ dataFile: data });
    await emu.close();
    writeFileSync(`${data}.lock`, JSON.stringify({ pid: gone, host: 'elsewhere.example', started: '2026-01-01T00:00:00Z' }));
    await expect(startEmulator({ dataFile: data })).rejects.toThrow(/elsewhere\.example/);
  });
});

describe('--data naming a symlink', () => {
  it('writes through the link: it stays a link and the file it names holds the state', async () => {
    const real = fresh('real.json');
    const link = fresh('link.json');
    symlinkSync(real, link); // dangling until the first write
    const emu = await startEmulator({ dataFile: link });
    try {
      await api(emu.url)('POST', '/zones/z9/logexport/jobs', { destination_conf: 's3://b/p?region=x' });
    } finally {
      await emu.close();
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(zonesIn(real)).toEqual(['z9']);
  });
});

describe('a data file of the wrong shape', { timeout: 120_000 }, () => {
  const base = { format: 1, nextJobId: 1, accounts: {} };
  const zone = (extra: Record<string, unknown>) => ({ ...base, zones: { z1: { rulesets: [], ...extra } } });
  const ruleset = { id: 'r', nextVersion: 2, versions: [{ version: '1', name: 'n', description: '', kind: 'custom', phase: 'p', rules: [], last_updated: 'x' }] };
  const cases: [string, unknown, string][] = [
    ['zone without rulesets', { ...base, zones: { z1: {} } }, 'zones.z1.rulesets'],
    ['rulesets a string', zone({ rulesets: 'x' }), 'zones.z1.rulesets'],
    ['jobs an object', zone({ jobs: {} }), 'zones.z1.jobs'],
    ['versions empty', zone({ rulesets: [{ ...ruleset, versions: [] }] }), 'zones.z1.rulesets[0].versions'],
    ['page_guard.scripts a number', zone({ page_guard: { settings: { enabled: false, updated_at: 'x' }, scripts: 5, connections: [], cookies: [], policies: [] } }), 'zones.z1.page_guard.scripts'],
    ['zone null', { ...base, zones: { z1: null } }, 'zones.z1'],
    ['account rulesets a number', { ...base, zones: {}, accounts: { a: { rulesets: 1 } } }, 'accounts.a.rulesets'],
  ];
  it.each(cases)('%s: refused at start with the place', async (_name, content, place) => {
    const data = fresh('shape.json');
    writeFileSync(data, JSON.stringify(content));
    const e = await startEmulator({ dataFile: data }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(e).toBeInstanceOf(StateFileError);
    expect(e!.message).toContain(`${place}:`);
    expect(existsSync(`${data}.lock`)).toBe(false);
  });
  it('a 100,000-character zone id is not echoed whole', async () => {
    const data = fresh('long-id.json');
    writeFileSync(data, JSON.stringify({ ...base, zones: { ['z'.repeat(100_000)]: { rulesets: 'x' } } }));
    const e = await startEmulator({ dataFile: data }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(e).toBeInstanceOf(StateFileError);
    expect(e!.message.length).toBeLessThan(500);
  });
  it('the bin exits 1 with one line naming the place, and leaves the file as it was', async () => {
    const data = fresh('shape-bin.json');
    const text = JSON.stringify(zone({ jobs: {} }));
    writeFileSync(data, text);
    const r = await runToExit(['--data', data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('zones.z1.jobs:');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(data, 'utf8')).toBe(text);
  });
  it('a --data in a directory that does not exist: exit 1, one line naming the data file, not a lock temporary', async () => {
    const data = join(fresh('missing-dir'), 'state.json');
    const r = await runToExit(['--data', data]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`data file ${data}`);
    expect(r.stderr).not.toContain('.tmp');
    expect(existsSync(data)).toBe(false);
  });
  it('a valid file with a ruleset still starts', async () => {
    const data = fresh('ok.json');
    writeFileSync(data, JSON.stringify(zone({ rulesets: [ruleset] })));
    const emu = await startEmulator({ dataFile: data });
    try {
      expect((await api(emu.url)('GET', '/zones/z1/rulesets/r')).body.result.version).toBe('1');
    } finally {
      await emu.close();
    }
  });
});

describe('reads never create state', () => {
  it('GETs of unknown zones and accounts answer as for new ones and keep nothing, in memory or on disk', async () => {
    const data = fresh('reads.json');
    const emu = await startEmulator({ dataFile: data });
    try {
      const call = api(emu.url);
      const reads = [
        '/zones/r1/rulesets',
        '/zones/r2/logexport/jobs',
        '/zones/r3/page_guard',
        '/zones/r4/page_guard/scripts',
        '/zones/r5/firewall/waf/packages',
        '/zones/r6/waf_migration/status',
        '/accounts/a1/rulesets',
        '/zones/r7/rulesets/phases/http_request_firewall_custom/entrypoint/versions',
      ];
      for (const path of reads) expect([path, (await call('GET', path)).status]).toEqual([path, 200]);
      expect((await call('GET', '/zones/r8/rulesets/0123456789abcdef0123456789abcdef')).status).toBe(404);
      // A write elsewhere persists only its own zone.
      expect((await call('POST', '/zones/w/logexport/jobs', { destination_conf: 's3://b/p?region=x' })).status).toBe(200);
      expect(zonesIn(data)).toEqual(['w']);
      expect(Object.keys(emu.store.state.zones)).toEqual(['w']);
      expect(Object.keys(emu.store.state.accounts)).toEqual([]);
      // A zone that exists gets no page monitoring from a read either.
      expect((await call('GET', '/zones/w/page_guard')).status).toBe(200);
      expect(emu.store.state.zones.w.page_guard).toBeUndefined();
    } finally {
      await emu.close();
    }
  });
});

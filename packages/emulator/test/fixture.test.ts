import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Spawning and bundling are slow on a busy machine: generous limits, and no assertion on time.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundleEmulatorBin } from './bin.js';
import { startEmulator, FixtureError, ERROR_CODES, AREAS, stateFromFixture } from '@logfilter/emulator';
import { api, own } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'logfilter-fixture-'));
const bundle = join(dir, 'logfilter-emulator.cjs');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  // The real bin, so this test needs no prior build.
  await bundleEmulatorBin(bundle);
});

function spawnBin(args: string[]) {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
  return { child, exited, stderr: () => stderr };
}

function start(args: string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const run = spawnBin(args);
  return new Promise((resolve, reject) => {
    createInterface({ input: run.child.stdout! }).once('line', (url) => resolve({ child: run.child, url, exited: run.exited }));
    run.child.once('exit', (code) => reject(new Error(`emulator exited with ${code}: ${run.stderr()}`)));
  });
}

async function stop(child: ChildProcess, exited: Promise<number | null>) {
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}

// The example, in the documented format.
const EXAMPLE = {
  accounts: { a1: {} },
  zones: {
    z1: {
      account: 'a1',
      plan: 'enterprise',
      waf: {
        packages: [{ id: 'p1', name: 'CloudFlare', groups: [{ id: 'g1', name: 'Specials' }], rules: [{ id: '100015', group: 'g1' }] }],
        overrides: [{ id: 'o1', urls: ['example.com/*'], rules: { '100015': 'block' } }],
        firewall_rules: [{ id: 'r1', expression: 'ip.src eq 192.0.2.1' }],
      },
    },
    z2: { plan: 'pro' },
  },
};

describe('fixtures in the library', () => {
  it('sets up zones, plans, the previous WAF, and defaults for the rest', async () => {
    const emu = await startEmulator({ fixture: EXAMPLE });
    try {
      const call = api(emu.url);
      expect((await call('GET', '/zones/z1/waf_migration/check')).body.result).toMatchObject({ compatible: false, migration_state: 'start' });
      expect((await call('GET', '/zones/z1/firewall/waf/packages')).body.result).toEqual([{ id: 'p1', name: 'CloudFlare', description: '', zone_id: 'z1', detection_mode: 'traditional' }]);
      const rule = (await call('GET', '/zones/z1/firewall/waf/packages/p1/rules/100015')).body.result;
      expect(rule).toMatchObject({ id: '100015', group: { id: 'g1', name: 'Specials' }, mode: 'default', default_mode: 'block', package_id: 'p1' });
      expect((await call('GET', '/zones/z1/firewall/waf/overrides/o1')).body.result).toMatchObject({ urls: ['example.com/*'], rules: { '100015': 'block' }, paused: false });
      expect((await call('GET', '/zones/z2/waf_migration/status')).body.result).toMatchObject({ plan: 'pro', migration_state: 'start' });
      // z2 has the default previous WAF packages; a zone not in the fixture is Enterprise, created on first use.
      expect((await call('GET', '/zones/z2/firewall/waf/packages')).body.result.length).toBe(2);
      expect((await call('GET', '/zones/elsewhere/waf_migration/status')).body.result).toMatchObject({ plan: 'enterprise' });
      expect(emu.store.state.zones.z1.account).toBe('a1');
      expect(Object.keys(emu.store.state.accounts)).toEqual(['a1']);
      // reset() returns to the fixture's state, not to nothing.
      await call('DELETE', '/zones/z1/firewall/waf/overrides/o1');
      emu.reset();
      expect((await call('GET', '/zones/z1/firewall/waf/overrides')).body.result).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });

  it('names the place and the problem of a bad fixture', () => {
    const cases: [unknown, string][] = [
      [[], 'fixture'],
      [{ zones: [] }, 'zones'],
      [{ zones: { z1: { plan: 'gold' } } }, 'zones.z1.plan'],
      [{ zones: { 'bad id': {} } }, 'zones.bad id'],
      [{ zones: { z1: { account: 7 } } }, 'zones.z1.account'],
      [{ zones: { z1: { waf: { overrides: [{ urls: 'example.com/*' }] } } } }, 'zones.z1.waf.overrides[0].urls'],
      [{ zones: { z1: { waf: { overrides: [{ rules: { '1': 'explode' } }] } } } }, 'zones.z1.waf.overrides[0].rules.1'],
      [{ zones: { z1: { waf: { firewall_rules: [{ expression: 42 }] } } } }, 'zones.z1.waf.firewall_rules[0].expression'],
      [{ zones: { z1: { waf: { packages: [{ rules: [{ id: 'x', group: 'nope' }] }] } } } }, 'zones.z1.waf.packages[0].rules[0].group'],
      [{ zones: { z1: { waf: { overrides: [{ id: 'a' }, { id: 'a' }] } } } }, 'zones.z1.waf.overrides[1].id'],
      [{ accounts: { a1: 'pro' } }, 'accounts.a1'],
    ];
    for (const [fixture, place] of cases) {
      let error: unknown;
      try {
        stateFromFixture(fixture, AREAS);
      } catch (e) {
        error = e;
      }
      expect(error, place).toBeInstanceOf(FixtureError);
      expect((error as Error).message.startsWith(`${place}:`), `${place} in ${(error as Error).message}`).toBe(true);
    }
  });

  it('ignores unknown keys with a warning naming each, and reads API-shaped values', async () => {
    const warnings: string[] = [];
    const fixture = {
      zone: {},
      accounts: { a1: { name: 'Acme' } },
      zones: {
        z1: {
          plna: 'pro',
          plan: 'Business',
          waf: {
            packages: [{ id: 'p', sensitivity: 'high', groups: [{ id: 'g', rules_count: 1 }], rules: [{ id: '990011', group: { id: 'g', name: 'x' }, priority: '7', mode: 'off', allowed_modes: ['on', 'off'] }] }],
            firewall_rules: [{ id: 'f', filter: { expression: 'ip.src eq 192.0.2.9' }, colour: 'red' }, { id: 'f' }],
          },
        },
      },
    };
    const state = stateFromFixture(fixture, AREAS, (w) => warnings.push(w));
    expect(warnings.map((w) => w.split(':')[0])).toEqual(['fixture.zone', 'accounts.a1.name', 'zones.z1.plna', 'zones.z1.waf.firewall_rules[0].colour', 'zones.z1.waf.firewall_rules[1].id']);
    expect(state.zones.z1.plan).toBe('business');
    expect(state.zones.z1.waf.packages[0]).toMatchObject({ detection_mode: 'anomaly', sensitivity: 'high', rules: [{ group_id: 'g', priority: '7', mode: 'off' }] });
    expect(state.zones.z1.waf.firewall_rules[0].expression).toBe('ip.src eq 192.0.2.9');
    const emu = await startEmulator({ fixture });
    try {
      expect(emu.fixtureWarnings).toHaveLength(5);
    } finally {
      await emu.close();
    }
  });

  it('reads rules listed inside their group, and groups and rules written as bare ids', () => {
    const state = stateFromFixture({ zones: { z: { waf: { packages: [{ id: 'p', groups: ['g0', { id: 'g1', rules: ['100015', { id: '100016', mode: 'disable' }] }], rules: [100173] }] } } } }, AREAS);
    const pkg = state.zones.z.waf.packages[0];
    expect(pkg.groups.map((g) => g.id)).toEqual(['g0', 'g1']);
    expect(pkg.rules.map((r) => [r.id, r.group_id, r.mode])).toEqual([['100173', 'g0', 'default'], ['100015', 'g1', 'default'], ['100016', 'g1', 'disable']]);
  });

  it('accepts numeric ids and keeps the fixture keys the issue names', () => {
    const state = stateFromFixture({ zones: { z: { waf: { packages: [{ id: 9, groups: [{ id: 1 }], rules: [{ id: 100015, group: 1 }] }], firewall_rules: [{}] } } } }, AREAS);
    expect(state.zones.z.waf.packages[0]).toMatchObject({ id: '9', groups: [{ id: '1', mode: 'on' }], rules: [{ id: '100015', group_id: '1' }] });
    expect(state.zones.z.waf.firewall_rules[0]).toMatchObject({ expression: 'true', action: 'block' });
    expect(state.zones.z.plan).toBe('enterprise');
  });
});

describe('logfilter-emulator --fixture', () => {
  it('starts from the fixture file; with --data the fixture seeds a new data file and an existing one wins', async () => {
    const fixture = join(dir, 'fixture.json');
    const data = join(dir, 'state.json');
    writeFileSync(fixture, JSON.stringify(EXAMPLE));
    const first = await start(['--fixture', fixture, '--data', data]);
    const call = api(first.url);
    expect((await call('GET', '/zones/z2/waf_migration/status')).body.result.plan).toBe('pro');
    expect((await call('DELETE', '/zones/z1/firewall/waf/overrides/o1')).status).toBe(200);
    await stop(first.child, first.exited);
    expect(JSON.parse(readFileSync(data, 'utf8')).zones.z1.waf.overrides).toEqual([]);

    // The data file exists now: it wins over the fixture, so the deleted override stays deleted.
    const second = await start(['--fixture', fixture, '--data', data]);
    expect((await api(second.url)('GET', '/zones/z1/waf_migration/check')).body.result.compatible).toBe(true);
    await stop(second.child, second.exited);
  });

  it('prints a warning line per ignored key and starts', async () => {
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ zones: { z1: { plna: 'pro' } } }));
    const run = spawnBin(['--fixture', typo]);
    await new Promise<void>((resolve) => createInterface({ input: run.child.stdout! }).once('line', () => resolve()));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('zones.z1.plna');
  });

  it('exits 2 with one line naming the problem for a missing, malformed or invalid fixture', async () => {
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{"zones": {');
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ zones: { z1: { plan: 'gold' } } }));
    for (const [file, mention] of [[join(dir, 'missing.json'), 'missing.json'], [notJson, 'bad.json'], [invalid, 'zones.z1.plan']]) {
      const run = spawnBin(['--fixture', file]);
      expect(await run.exited).toBe(2);
      const lines = run.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(mention);
    }
  });
});

it('a previous-WAF body error names the field', async () => {
  const emu = await startEmulator({ fixture: EXAMPLE });
  try {
    const r = await api(emu.url)('POST', '/zones/z1/firewall/waf/overrides', { urls: [] });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.wafInvalid, { pointer: '/urls' }]);
    const mode = await api(emu.url)('PATCH', '/zones/z1/firewall/waf/packages/p1/rules/100015', { mode: 'on' });
    expect([mode.status, mode.body.errors[0].code]).toEqual([400, ERROR_CODES.wafInvalid]);
    const missing = await api(emu.url)('GET', '/zones/z1/firewall/waf/packages/nope');
    expect([missing.status, missing.body.errors[0].code]).toEqual([404, ERROR_CODES.wafNotFound]);
  } finally {
    await emu.close();
  }
});

it('keeps zones and accounts named __proto__ as ordinary entries', async () => {
  const emu = await startEmulator({ fixture: JSON.parse('{"accounts": {"__proto__": {}}, "zones": {"__proto__": {"plan": "pro"}}}') });
  try {
    const call = api(emu.url);
    expect((await call('GET', '/zones/__proto__/waf_migration/status')).body.result.plan).toBe('pro');
    expect((await call('POST', '/accounts/__proto__/rulesets', { name: 'n', kind: 'custom', phase: 'http_ratelimit' })).status).toBe(200);
    expect(own((await call('GET', '/accounts/__proto__/rulesets')).body.result)).toHaveLength(1);
    expect(Object.getPrototypeOf(emu.store.state.zones)).toBe(Object.prototype);
  } finally {
    await emu.close();
  }
});

describe('hostile fixtures get an answer by place', () => {
  it('a fixture nested 2,000 deep is refused with the place, not a stack overflow', () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 2000; i++) deep = (deep.x = {}) as Record<string, unknown>;
    for (const fixture of [{ zones: { z1: { page_guard: { scripts: [{ id: 's', extra: top }] } } } }, { zones: { z1: top } }]) {
      let error: unknown;
      try {
        stateFromFixture(fixture, AREAS);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as Error).message).toMatch(/^fixture\.zones\.z1\./);
    }
  });
  it('a policy value with a line break is refused by place', () => {
    const fixture = { zones: { z1: { page_guard: { policies: [{ id: 'p1', value: "script-src 'self'\nX-Injected: 1" }] } } } };
    expect(() => stateFromFixture(fixture, AREAS)).toThrow(FixtureError);
    expect(() => stateFromFixture(fixture, AREAS)).toThrow(/^zones\.z1\.page_guard\.policies\[0\]\.value:/);
  });
  it('a 100,000-character zone or account id is not echoed whole', () => {
    const long = 'z'.repeat(99_999) + '!';
    for (const fixture of [{ zones: { [long]: {} } }, { accounts: { [long]: {} } }, { zones: { z1: { account: long } } }]) {
      let error: unknown;
      try {
        stateFromFixture(fixture, AREAS);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as Error).message.length).toBeLessThan(300);
    }
  });
});

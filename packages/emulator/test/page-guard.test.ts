/** Page monitoring on the wire: parameter errors with their pointer, the CSV and empty answers, fixtures and --fixture. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleEmulatorBin } from './bin.js';
import { FixtureError, startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { CSV_COLUMNS, LIST_PARAMETERS } from '@logfilter/api';
import { api, type Raw } from './http.js';
import { csvExport } from '../src/page-guard.js';
import { fixture, hexId, SHOP_FIXTURE, SHOP_FIXTURE_FILE } from '../../../test/support/page-guard.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
const dir = mkdtempSync(join(tmpdir(), 'logfilter-pg-'));

beforeAll(async () => {
  emu = await startEmulator({ fixture: SHOP_FIXTURE });
  call = api(emu.url);
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const S = '/zones/shop/page_guard';
function expectError(r: Raw, status: number, code: number, pointer?: string) {
  expect(r.status).toBe(status);
  expect(r.body.success).toBe(false);
  expect(r.body.errors[0].code).toBe(code);
  if (pointer !== undefined) expect(r.body.errors[0].source?.pointer).toBe(pointer);
}

describe('invalid list parameters: 400 with the envelope and a pointer to the parameter', () => {
  it.each([
    ['scripts', 'per_page=0', 'per_page'],
    ['scripts', 'per_page=101', 'per_page'],
    ['scripts', 'per_page=x', 'per_page'],
    ['scripts', 'page=-1', 'page'],
    ['scripts', 'page=al', 'page'],
    ['scripts', 'status=gone', 'status'],
    ['scripts', 'status=active,', 'status'],
    ['scripts', 'order_by=url', 'order_by'],
    ['scripts', 'direction=ASC', 'direction'],
    ['scripts', 'prioritize_malicious=yes', 'prioritize_malicious'],
    ['scripts', 'exclude_cdn_cgi=1', 'exclude_cdn_cgi'],
    ['scripts', 'exclude_duplicates=no', 'exclude_duplicates'],
    ['scripts', 'hosts=a*b.com', 'hosts'],
    ['scripts', 'hosts=', 'hosts'],
    ['scripts', 'urls=a,,b', 'urls'],
    ['scripts', 'export=json', 'export'],
    ['scripts', 'export=csv&page=1', 'page'],
    ['scripts', 'export=csv&per_page=5', 'per_page'],
    ['scripts', 'page=all&per_page=5', 'per_page'],
    ['scripts', 'per_page=5&per_page=6', 'per_page'],
    ['scripts', 'colour=red', 'colour'],
    ['connections', 'exclude_duplicates=true', 'exclude_duplicates'],
    ['cookies', 'status=active', 'status'],
    ['cookies', 'same_site=lenient', 'same_site'],
    ['cookies', 'type=third_party', 'type'],
    ['cookies', 'http_only=maybe', 'http_only'],
  ])('%s?%s', async (resource, query, parameter) => {
    const r = await call('GET', `${S}/${resource}?${query}`);
    expectError(r, 400, 12001, `/${parameter}`);
    expect(r.body.errors[0].message.startsWith(parameter)).toBe(true);
  });

  it('cookie filters longer than the schema maxLength (1024 characters) are refused; 1024 is taken', async () => {
    for (const name of ['name', 'path', 'domain']) {
      expectError(await call('GET', `${S}/cookies?${name}=${'x'.repeat(1025)}`), 400, 12001, `/${name}`);
      expectError(await call('GET', `${S}/cookies?${name}=${encodeURIComponent('é'.repeat(1025))}`), 400, 12001, `/${name}`);
      const r = await call('GET', `${S}/cookies?${name}=${encodeURIComponent('é'.repeat(1024))}`);
      expect([r.status, name]).toEqual([200, name]);
    }
  });

  it('accepts every parameter of the table on the resources that take it', async () => {
    const sample: Record<string, string> = { patterns: '*example*', substrings: 'js', 'enum-list': 'active', bool: 'true', page: '1', 'per-page': '5' };
    for (const p of LIST_PARAMETERS.filter((x) => x.name !== 'export')) {
      for (const resource of p.on) {
        const value = p.kind === 'enum' ? p.values![0] : sample[p.kind];
        const r = await call('GET', `${S}/${resource}?${p.name}=${encodeURIComponent(value)}`);
        expect([r.status, p.name, resource]).toEqual([200, p.name, resource]);
      }
    }
  });
});

describe('answers', () => {
  it('export=csv is text/csv with the documented header, not an envelope', async () => {
    const res = await fetch(`${emu.url}${S}/scripts?export=csv`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe(CSV_COLUMNS.scripts.join(','));
    expect(lines).toHaveLength(13);
  });

  it('export=csv stops at 50,000 rows', () => {
    // The cap on the function the route answers with: 50,003 items through HTTP would only add minutes of CPU.
    const many = Array.from({ length: 50_003 }, (_, i) => ({ id: hexId(7, i), name: `c${i}` }));
    const lines = csvExport('cookies', many).trimEnd().split('\n');
    expect(lines).toHaveLength(50_001);
    expect(lines[50_000].startsWith(`${hexId(7, 49_999)},c49999,`)).toBe(true);
  });

  it('an empty list says 0 pages, as every list endpoint does (policies said 1; scripts with page=all said 0)', async () => {
    const empty = { page: 1, per_page: 0, count: 0, total_count: 0, total_pages: 0 };
    expect((await call('GET', '/zones/none/page_guard/policies')).body.result_info).toEqual(empty);
    expect((await call('GET', '/zones/none/page_guard/scripts?page=all')).body.result_info).toEqual(empty);
    expect((await call('GET', '/zones/none/logpush/jobs')).body.result_info).toEqual(empty);
    expect((await call('GET', '/zones/none/page_guard/scripts')).body.result_info.total_pages).toBe(0);
  });

  it('policy DELETE answers with an empty body', async () => {
    const created = await call('POST', '/zones/del/page_guard/policies', { action: 'log', expression: 'true', value: "script-src 'self'", enabled: 'false' });
    expect(created.status).toBe(200);
    expect(created.body.result.enabled).toBe('false');
    const res = await fetch(`${emu.url}/zones/del/page_guard/policies/${created.body.result.id}`, { method: 'DELETE', headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expectError(await call('GET', `/zones/del/page_guard/policies/${created.body.result.id}`), 404, 12005);
  });

  it('refuses bad policies pointing at the field, a bad value with the diagnostic and its offsets, and changes nothing', async () => {
    const good = { action: 'log', expression: 'true', value: "script-src 'self'" };
    expectError(await call('POST', '/zones/bad/page_guard/policies', { ...good, action: 'block' }), 400, 12006, '/action');
    expectError(await call('POST', '/zones/bad/page_guard/policies', { ...good, enabled: 'yes' }), 400, 12006, '/enabled');
    expectError(await call('POST', '/zones/bad/page_guard/policies', { action: 'log', value: "script-src 'self'" }), 400, 12006, '/expression');
    const r = await call('POST', '/zones/bad/page_guard/policies', { ...good, value: "script-src 'self' https://a.test:99999" });
    expectError(r, 400, 12007, '/value');
    expect(r.body.errors[0].message).toContain('invalid-port at 18-38');
    const p = (await call('POST', '/zones/bad/page_guard/policies', good)).body.result;
    expectError(await call('PUT', `/zones/bad/page_guard/policies/${p.id}`, { action: 'allow', value: 'script-src *.' }), 400, 12007, '/value');
    // A line break (or any control character) would split the header the value is sent in.
    for (const value of ["script-src 'self'\nfoo", "script-src 'self'\r\nX-Injected: 1", "script-src\t'self'"]) {
      expectError(await call('POST', '/zones/bad/page_guard/policies', { ...good, value }), 400, 12007, '/value');
      expectError(await call('PUT', `/zones/bad/page_guard/policies/${p.id}`, { value }), 400, 12007, '/value');
    }
    expect((await call('GET', `/zones/bad/page_guard/policies/${p.id}`)).body.result).toEqual(p);
    expect((await call('GET', '/zones/bad/page_guard/policies')).body.result).toEqual([p]);
  });

  it('refuses bad settings pointing at the field', async () => {
    expectError(await call('PUT', S, {}), 400, 12008);
    expectError(await call('PUT', S, { enabled: 'true' }), 400, 12008, '/enabled');
    expectError(await call('PUT', S, { enabled: true, mode: 'x' }), 400, 12008, '/mode');
    expect((await call('GET', S)).body.result.enabled).toBe(true);
  });

  it('reset restores the fixture', async () => {
    await call('PUT', S, { enabled: false });
    await call('POST', `${S}/policies`, { action: 'log', expression: 'true', value: "script-src 'none'" });
    emu.reset();
    expect((await call('GET', S)).body.result.enabled).toBe(true);
    expect((await call('GET', `${S}/policies`)).body.result).toHaveLength(1);
  });
});

describe('fixtures', () => {
  it('fills what a fixture leaves out with defaults derived from what it gives', async () => {
    const e = await startEmulator({ fixture: fixture({ d: { scripts: [{ id: 'abc1' }, { id: 'abc2', url: 'https://x.test/cdn-cgi/a.js', first_page_url: 'https://www.d.test/p', hash: 'ff', js_integrity_score: 3 }] } }) });
    try {
      const r = await api(e.url)('GET', '/zones/d/page_guard/scripts/abc1');
      expect(r.body.result).toEqual({
        id: 'abc1', host: 'example.com', url: 'https://example.com/abc1.js', first_page_url: 'https://example.com/', page_urls: ['https://example.com/'],
        first_seen_at: '2026-01-01T00:00:00Z', last_seen_at: '2026-01-01T00:00:00Z', added_at: '2026-01-01T00:00:00Z', status: 'active',
        url_contains_cdn_cgi_path: false, domain_reported_malicious: false, url_reported_malicious: false, versions: [],
      });
      const r2 = await api(e.url)('GET', '/zones/d/page_guard/scripts/abc2');
      expect(r2.body.result).toMatchObject({ host: 'www.d.test', url_contains_cdn_cgi_path: true, versions: [{ hash: 'ff', js_integrity_score: 3 }] });
    } finally {
      await e.close();
    }
  });

  it.each([
    [{ zones: { z: { page_guard: { scripts: [{ url: 'https://a' }] } } } }, 'zones.z.page_guard.scripts[0]'],
    [{ zones: { z: { page_guard: { scripts: [{ id: 'a' }, { id: 'a' }] } } } }, 'zones.z.page_guard.scripts[1].id'],
    [{ zones: { z: { page_guard: { scripts: [{ id: 'a', js_integrity_score: 'high' }] } } } }, 'zones.z.page_guard.scripts[0]'],
    [{ zones: { z: { page_guard: { policies: [{ id: 'p', value: 'img-src *' }] } } } }, 'zones.z.page_guard.policies[0].value'],
    [{ zones: { z: { page_guard: { policies: [{ id: 'p', action: 'deny' }] } } } }, 'zones.z.page_guard.policies[0].action'],
    [{ zones: { z: { page_guard: { connections: [{ id: 'c', status: 'Active' }] } } } }, 'zones.z.page_guard.connections[0].status'],
    [{ zones: { z: { page_guard: { settings: { enabled: 'on' } } } } }, 'zones.z.page_guard.settings'],
    [{ zones: { 'bad zone': {} } }, 'zones.bad zone'],
    [{ zones: [] }, 'zones'],
  ])('a bad fixture is refused naming the path of the bad value (%#)', async (doc, path) => {
    const err = await startEmulator({ fixture: doc }).then(
      (e) => e.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FixtureError);
    expect((err as Error).message.startsWith(`${path}:`) || (err as Error).message.startsWith(`${path}.`)).toBe(true);
  });

  it('warns about (and ignores) an unknown page_guard section', async () => {
    const e = await startEmulator({ fixture: { zones: { z: { page_guard: { script: [{ id: 'a' }], scripts: [{ id: 'b' }] } } } } });
    try {
      expect(e.fixtureWarnings.some((w) => w.startsWith('zones.z.page_guard.script:'))).toBe(true);
      expect((await api(e.url)('GET', '/zones/z/page_guard/scripts')).body.result.map((s: { id: string }) => s.id)).toEqual(['b']);
    } finally {
      await e.close();
    }
  });
});

describe('logfilter-emulator --fixture', () => {
  const bundle = join(dir, 'logfilter-emulator.cjs');
  beforeAll(async () => {
    await bundleEmulatorBin(bundle);
  });

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; child: ReturnType<typeof spawn> }> {
    const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    return new Promise((resolve) => {
      child.stdout!.on('data', (d) => {
        stdout += d;
        if (stdout.includes('\n')) resolve({ code: null, stdout, stderr, child });
      });
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('exit', (code) => resolve({ code, stdout, stderr, child }));
    });
  }

  it('serves the fixture file', async () => {
    const r = await run(['--fixture', SHOP_FIXTURE_FILE]);
    try {
      const url = r.stdout.trim();
      const list = await api(url)('GET', '/zones/shop/page_guard/policies');
      expect(list.body.result[0].id).toBe('p1000000000000000000000000000001');
    } finally {
      r.child.kill('SIGTERM');
    }
  });

  it('exits 2 naming the file and the bad path when the fixture is unreadable, not JSON or invalid', async () => {
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{"zones":');
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ zones: { z: { page_guard: { scripts: [{ id: 7 }] } } } }));
    for (const [file, needle] of [[join(dir, 'missing.json'), 'missing.json'], [notJson, 'not JSON'], [invalid, 'zones.z.page_guard.scripts[0]']]) {
      const r = await run(['--fixture', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(needle);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('settings of a zone where monitoring was never set up', () => {
  it('answer one updated_at at every read, and after changes that are not to the settings; a PUT moves it', async () => {
    const s = '/zones/never-set-up/page_guard';
    const first = await call('GET', s);
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 5)); // not a timed assertion: only lets the clock move
    expect((await call('GET', s)).body.result.updated_at).toBe(first.body.result.updated_at);
    // a policy created keeps the zone's monitoring state, not its settings
    const created = await call('POST', `${s}/policies`, { action: 'log', expression: 'true', value: "script-src 'self'", enabled: true });
    expect(created.status).toBe(200);
    expect((await call('GET', s)).body.result.updated_at).toBe(first.body.result.updated_at);
    const put = await call('PUT', s, { enabled: true });
    expect(Date.parse(put.body.result.updated_at)).toBeGreaterThan(Date.parse(first.body.result.updated_at));
  });
});

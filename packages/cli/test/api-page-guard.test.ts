/** `logfilter page-guard …` over real HTTP against the emulator fed by fixtures. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { CSV_COLUMNS, LogfilterClient, parseCspValue } from '@logfilter/api';
import { logfilter } from './api-harness.js';
import { fixture, hexId, manyScripts, SHOP_FIXTURE } from '../../../test/support/page-guard.js';

const TOKEN = 'cli-pg-token';
let emu: RunningEmulator;
let env: Record<string, string>;

const DOC = fixture({
  big: { scripts: [...manyScripts(250), { id: hexId(8, 1), url: 'https://evil.big.test/x.js', host: 'www.big.test', js_integrity_score: 77, first_seen_at: '2025-06-01T00:00:00Z' }] },
  scores: {
    scripts: [
      { id: hexId(3, 49), url: 'https://s.test/49.js', js_integrity_score: 49 },
      { id: hexId(3, 50), url: 'https://s.test/50.js', js_integrity_score: 50 },
      { id: hexId(3, 51), url: 'https://s.test/51.js', js_integrity_score: 51 },
    ],
  },
});
(DOC.zones as Record<string, unknown>).shop = SHOP_FIXTURE.zones.shop;
(DOC.accounts as Record<string, unknown>).acme = {};

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: DOC });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

const pg = (...args: string[]) => logfilter(['page-guard', ...args], env);
const json = async (...args: string[]) => {
  const r = await pg(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
/** The table row of an id: its cells split on runs of two or more spaces. */
const row = (out: string, id: string) => out.split('\n').find((l) => l.includes(id));

describe('API failures', () => {
  it('a refused credential, an unreachable API and a broken answer are one line each, exit 1', async () => {
    const denied = await logfilter(['page-guard', 'scripts', '--zone', 'shop'], { ...env, LOGFILTER_API_TOKEN: 'wrong' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('10001');
    const down = await logfilter(['page-guard', 'status', '--zone', 'shop', '--retries', '0'], { ...env, LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4' });
    expect(down.code).toBe(1);
    emu.injectFaults({ rawBody: '{"broken"' });
    const broken = await pg('policies', 'list', '--zone', 'shop', '--retries', '0');
    expect(broken.code).toBe(1);
    for (const r of [denied, down, broken]) {
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // no base URL nor credentials: a set-up error, nothing sent (exit 2)
    const noEnv = await logfilter(['page-guard', 'status', '--zone', 'shop'], {});
    expect(noEnv.code).toBe(2);
    // No credentials anywhere: the error lists every variable looked at (the base URL defaults to the provider's).
    for (const name of ['LOGFILTER_API_TOKEN', 'LOGFILTER_AUTH_EMAIL', 'LOGFILTER_AUTH_KEY', 'CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_EMAIL', 'CLOUDFLARE_API_KEY']) expect(noEnv.stderr).toContain(name);
  });
});

describe('status, enable, disable', () => {
  it('reads and switches monitoring; updated_at moves', async () => {
    const before = await json('status', '--zone', 'shop');
    expect(before).toMatchObject({ enabled: true, updated_at: '2026-03-01T10:00:00Z' });
    const off = await json('disable', '--zone', 'shop');
    expect(off.enabled).toBe(false);
    expect(Date.parse(off.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const on = await pg('enable', '--zone', 'shop');
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/^enabled:\s+true$/m);
    expect((await json('status', '--zone', 'shop')).enabled).toBe(true);
  });

  it("settings changes the two optional booleans, by the provider's names, and prints them so (neutral names with LOGFILTER_API_NAMES=neutral)", async () => {
    const set = await json('settings', '--zone', 'shop', '--use-cloudflare-reporting-endpoint', 'false', '--use-connection-url-path', 'true');
    expect(set).toMatchObject({ enabled: true, use_cloudflare_reporting_endpoint: false, use_connection_url_path: true });
    expect(set.use_service_reporting_endpoint).toBeUndefined();
    // no flag: it shows them, as status does; enable and disable take them too
    expect(await json('settings', '--zone', 'shop')).toMatchObject({ use_cloudflare_reporting_endpoint: false, use_connection_url_path: true });
    expect(await json('disable', '--zone', 'shop', '--use-cloudflare-reporting-endpoint', 'true')).toMatchObject({ enabled: false, use_cloudflare_reporting_endpoint: true, use_connection_url_path: true });
    expect(await json('enable', '--zone', 'shop')).toMatchObject({ enabled: true, use_cloudflare_reporting_endpoint: true });
    const neutral = await logfilter(['page-guard', 'status', '--zone', 'shop', '--json'], { ...env, LOGFILTER_API_NAMES: 'neutral' });
    expect(JSON.parse(neutral.stdout)).toMatchObject({ use_service_reporting_endpoint: true });
    // a value other than true/false is a usage error, nothing sent
    const before = emu.requestCount;
    expect((await pg('settings', '--zone', 'shop', '--use-connection-url-path', 'yes')).code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });
});

describe('scripts', () => {
  it('a human table with malicious rows marked and merged categories shown', async () => {
    const r = await pg('scripts', '--zone', 'shop');
    expect(r.code).toBe(0);
    expect(row(r.stdout, 'd0000000000000000000000000000001')).toMatch(/^!\s+d0+1\s+active\s+90\s+.*Malware, Phishing, Magecart$/);
    expect(row(r.stdout, 'e0000000000000000000000000000003')!.startsWith('!')).toBe(true);
    expect(row(r.stdout, 'a0000000000000000000000000000001')!.startsWith(' ')).toBe(true);
    expect(r.stdout).not.toContain('f0000000000000000000000000000003'); // infrequent: not listed by default
    expect(r.stdout).not.toContain('cdn-cgi');
  });

  it('--json carries the derived malicious and categories; filters reach the API', async () => {
    const all = await json('scripts', '--zone', 'shop', '--per-page', '100');
    const evil = all.find((s: { id: string }) => s.id === 'd0000000000000000000000000000001');
    expect(evil).toMatchObject({ malicious: true, categories: ['Malware', 'Phishing', 'Magecart'] });
    expect((await json('scripts', '--zone', 'shop', '--status', 'infrequent')).map((s: { id: string }) => s.id)).toEqual(['f0000000000000000000000000000003']);
    expect((await json('scripts', '--zone', 'shop', '--status', 'active,infrequent', '--host', 'nowhere.test'))).toEqual([]);
    expect((await json('scripts', '--zone', 'shop', '--url', 'jsdelivr', '--direction', 'asc')).map((s: { url: string }) => s.url)).toEqual([
      'https://cdn.jsdelivr.net/npm/a.js', 'https://cdn.jsdelivr.net/npm/b.js', 'https://cdn.jsdelivr.net/npm/c.js',
    ]);
    expect((await json('scripts', '--zone', 'shop', '--include-cdn-cgi', '--url', 'cdn-cgi')).length).toBe(1);
    expect((await json('scripts', '--zone', 'shop', '--malicious')).map((s: { id: string }) => s.id).sort()).toEqual(['d0000000000000000000000000000001', 'e0000000000000000000000000000003']);
  });

  it('one page by default with a note; --all walks every page', async () => {
    const r = await pg('scripts', '--zone', 'big');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').filter((l) => /[0-9a-f]{32}/.test(l))).toHaveLength(20);
    expect(r.stderr).toMatch(/page 1 of 13/);
    expect(await json('scripts', '--zone', 'big', '--all')).toHaveLength(251);
    expect(await json('scripts', '--zone', 'big', '--page', '3', '--per-page', '100')).toHaveLength(51);
    expect((await json('scripts', '--zone', 'big', '--malicious')).map((s: { id: string }) => s.id)).toEqual([hexId(8, 1)]);
  });

  it('the malicious rule is settable: 49, 50, 51 above (default) and below', async () => {
    const verdicts = async (...flags: string[]) => Object.fromEntries((await json('scripts', '--zone', 'scores', ...flags)).map((s: { js_integrity_score: number; malicious: boolean }) => [s.js_integrity_score, s.malicious]));
    expect(await verdicts()).toEqual({ 49: false, 50: false, 51: true });
    expect(await verdicts('--malicious-direction', 'below')).toEqual({ 49: true, 50: false, 51: false });
    expect(await verdicts('--malicious-threshold', '49')).toEqual({ 49: false, 50: true, 51: true });
  });

  it('--csv: the documented columns then malicious and categories', async () => {
    const r = await pg('scripts', '--zone', 'shop', '--csv', '--all');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe([...CSV_COLUMNS.scripts, 'malicious', 'categories'].join(','));
    expect(lines).toHaveLength(13);
    expect(lines.find((l) => l.startsWith('d0000000000000000000000000000001'))!.endsWith(',true,Malware|Phishing|Magecart')).toBe(true);
    const c = await pg('cookies', '--zone', 'shop', '--csv');
    expect(c.stdout.split('\n')[0]).toBe(CSV_COLUMNS.cookies.join(','));
  });

  it('bad flags are usage errors (exit 2) naming the flag, and nothing is sent', async () => {
    const before = emu.requestCount;
    for (const [args, flag] of [
      [['--per-page', '300'], '--per-page'],
      [['--per-page', '0'], '--per-page'],
      [['--status', 'gone'], '--status'],
      [['--host', 'a*b'], '--host'],
      [['--order-by', 'url'], '--order-by'],
      [['--direction', 'up'], '--direction'],
      [['--malicious-direction', 'left'], '--malicious-direction'],
      [['--malicious-threshold', 'high'], '--malicious-threshold'],
      [['--csv', '--json'], '--csv'],
      [['--all', '--page', '2'], '--page'],
      [['--zone', ''], '--zone'],
    ] as const) {
      const r = await pg('scripts', '--zone', 'shop', ...args);
      expect([r.code, args]).toEqual([2, args]);
      expect(r.stderr).toContain(flag);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(emu.requestCount).toBe(before);
  });

  it('script ID shows versions and page URLs; an unknown one fails with the API code (exit 1)', async () => {
    const s = await json('script', 'a0000000000000000000000000000001', '--zone', 'shop');
    expect(s).toMatchObject({ page_urls: ['https://shop.example.com/checkout'], versions: [{ hash: 'aa01', js_integrity_score: 10 }], malicious: false, categories: [] });
    const h = await pg('script', 'a0000000000000000000000000000001', '--zone', 'shop');
    expect(h.stdout).toMatch(/^page urls:\n  https:\/\/shop\.example\.com\/checkout$/m);
    expect(h.stdout).toMatch(/^versions:\n\s+HASH\s+SCORE\s+FETCHED AT\n\s+aa01\s+10\s+/m);
    const missing = await pg('script', 'nope', '--zone', 'shop');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('12002');
  });
});

describe('connections and cookies', () => {
  it('connections: malicious by reported flags, marked; connection ID', async () => {
    const r = await pg('connections', '--zone', 'shop');
    expect(row(r.stdout, 'c1000000000000000000000000000002')).toMatch(/^!.*Command-and-Control \(C2\) & Botnet$/);
    expect(row(r.stdout, 'c1000000000000000000000000000001')!.startsWith(' ')).toBe(true);
    expect(await json('connection', 'c1000000000000000000000000000002', '--zone', 'shop')).toMatchObject({ malicious: true, categories: ['Command-and-Control (C2) & Botnet'] });
  });

  it('cookies with their filters; cookie ID', async () => {
    const names = async (...f: string[]) => (await json('cookies', '--zone', 'shop', ...f)).map((c: { name: string }) => c.name).sort();
    expect(await names()).toEqual(['_ga', 'session']);
    expect(await names('--http-only', 'true')).toEqual(['session']);
    expect(await names('--same-site', 'none')).toEqual(['_ga']);
    expect(await names('--name', '_*')).toEqual(['_ga']);
    expect(await names('--type', 'first_party', '--secure', 'true')).toEqual(['session']);
    expect((await json('cookie', 'k1000000000000000000000000000002', '--zone', 'shop')).domain_attribute).toBe('.example.com');
    expect((await pg('cookies', '--zone', 'shop', '--same-site', 'lenient')).code).toBe(2);
  });

  it('a cookie filter longer than the API takes (1024 characters) is a usage error naming the flag; nothing is sent', async () => {
    const before = emu.requestCount;
    for (const flag of ['--name', '--path', '--domain']) {
      const r = await pg('cookies', '--zone', 'shop', flag, 'x'.repeat(1025));
      expect([r.code, flag]).toEqual([2, flag]);
      expect(r.stderr).toContain(flag);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(emu.requestCount).toBe(before);
    expect((await json('cookies', '--zone', 'shop', '--name', 'x'.repeat(1024)))).toEqual([]);
  });
});

describe('policies', () => {
  it('create, get, update, list, delete', async () => {
    const z = 'cli-pol';
    const created = await json('policies', 'create', '--zone', z, '--action', 'log', '--expression', 'http.host eq "a.test"', '--value', "script-src 'self' https://cdn.a.test", '--description', 'first');
    expect(created).toMatchObject({ action: 'log', enabled: true, description: 'first', value: "script-src 'self' https://cdn.a.test" });
    expect(await json('policies', 'get', created.id, '--zone', z)).toEqual(created);
    const updated = await json('policies', 'update', created.id, '--zone', z, '--action', 'allow', '--disable');
    expect(updated).toEqual({ ...created, action: 'allow', enabled: false });
    const list = await pg('policies', 'list', '--zone', z);
    expect(row(list.stdout, created.id)).toMatch(/allow\s+no\s+first\s+script-src 'self' https:\/\/cdn\.a\.test$/);
    const del = await pg('policies', 'delete', created.id, '--zone', z, '--yes');
    expect(del.code).toBe(0);
    expect(await json('policies', 'list', '--zone', z)).toEqual([]);
    expect((await pg('policies', 'get', created.id, '--zone', z)).code).toBe(1);
  });

  it('create --disable; ids also with --id', async () => {
    const z = 'cli-pol-2';
    const p = await json('policies', 'create', '--zone', z, '--action', 'allow', '--expression', 'true', '--value', "script-src 'self'", '--disable');
    expect(p.enabled).toBe(false);
    expect(await json('policies', 'get', '--id', p.id, '--zone', z)).toEqual(p);
    expect((await json('policies', 'update', '--id', p.id, '--zone', z, '--enable')).enabled).toBe(true);
    expect((await pg('policies', 'delete', '--id', p.id, '--zone', z, '--yes')).code).toBe(0);
    expect(await json('policies', 'list', '--zone', z)).toEqual([]);
    expect((await pg('policies', 'get', '--zone', z)).code).toBe(2);
    expect((await pg('policies', 'get', 'a', '--id', 'b', '--zone', z)).code).toBe(2);
    expect((await pg('policies', 'create', '--zone', z, '--action', 'log', '--expression', 'true', '--value', "script-src 'self'", '--enable', '--disable')).code).toBe(2);
  });

  it('a bad value is shown at its source with the diagnostic code and exits 1 before sending', async () => {
    const before = emu.requestCount;
    const r = await pg('policies', 'create', '--zone', 'cli-pol', '--action', 'log', '--expression', 'true', '--value', "script-src 'self' https://a.test:99999");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^--value:1:19: error invalid-port: /m);
    const u = await pg('policies', 'update', 'x', '--zone', 'cli-pol', '--value', 'img-src *');
    expect(u.code).toBe(1);
    expect(u.stderr).toMatch(/^--value:1:1: error unsupported-directive: /m);
    expect(emu.requestCount).toBe(before);
  });

  it('a misspelt directive or keyword of the value is answered with the nearest one (exit 1, nothing sent)', async () => {
    const before = emu.requestCount;
    const cases: [string, string][] = [
      ["script-scr 'self'", 'did you mean script-src'],
      ["script-src-elm 'self'", 'did you mean script-src-elem'],
      ["script-src 'slef'", "did you mean 'self'?"],
      ["script-src 'self' 'unsafe-inlin'", "did you mean 'unsafe-inline'?"],
    ];
    for (const [value, want] of cases) {
      const r = await pg('policies', 'create', '--zone', 'cli-pol', '--action', 'log', '--expression', 'true', '--value', value);
      expect([value, r.code]).toEqual([value, 1]);
      expect(r.stderr).toContain(want);
    }
    expect(emu.requestCount).toBe(before);
  });

  it('usage errors: missing or unknown action, nothing to update', async () => {
    expect((await pg('policies', 'create', '--zone', 'z', '--expression', 'true', '--value', "script-src 'self'")).code).toBe(2);
    expect((await pg('policies', 'create', '--zone', 'z', '--action', 'block', '--expression', 'true', '--value', "script-src 'self'")).code).toBe(2);
    expect((await pg('policies', 'update', 'p', '--zone', 'z')).code).toBe(2);
    expect((await pg('policies', 'update', 'p', '--zone', 'z', '--enable', '--disable')).code).toBe(2);
  });

  it('--dry-run prints the request with the token redacted', async () => {
    const r = await pg('policies', 'create', '--zone', 'z', '--action', 'log', '--expression', 'true', '--value', "script-src 'self'", '--dry-run');
    expect(r.code).toBe(0);
    const req = JSON.parse(r.stdout);
    expect(req).toMatchObject({ method: 'POST', body: { action: 'log', expression: 'true', value: "script-src 'self'", enabled: true } });
    expect(req.url.endsWith('/zones/z/page_shield/policies')).toBe(true);
    expect(r.stdout).not.toContain(TOKEN);
  });

  it('--dry-run of a policy id "." or ".." is refused as sending it is (exit 2), no request printed', async () => {
    for (const id of ['.', '..']) {
      const del = await pg('policies', 'delete', id, '--zone', 'z', '--yes', '--dry-run');
      const upd = await pg('policies', 'update', '--id', id, '--zone', 'z', '--disable', '--dry-run');
      for (const r of [del, upd]) {
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
      }
    }
  });
});

describe('policy suggest and policy check', () => {
  it('check: a bad --status or --host is refused before the policy is read (exit 2, nothing sent)', async () => {
    const before = emu.requestCount;
    for (const bad of [['--status', 'activ'], ['--host', 'a*b']]) {
      const r = await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop', ...bad);
      expect(r.code).toBe(2);
    }
    expect(emu.requestCount).toBe(before);
  });

  const SUGGESTED = "script-src 'self' https://cdn.jsdelivr.net https://static.partner.com/a.js https://static.partner.com/b.js https://www.googletagmanager.com/gtm.js";

  it('suggest: self for same-origin, the host where several scripts share it, full URLs otherwise, malicious left out with why', async () => {
    const s = await json('policy', 'suggest', '--zone', 'shop');
    expect(s.value).toBe(SUGGESTED);
    expect(parseCspValue(s.value).diagnostics).toEqual([]);
    expect(s.sources.map((x: { source: string; kind: string; scripts: unknown[] }) => [x.source, x.kind, x.scripts.length])).toEqual([
      ["'self'", 'self', 3],
      ['https://cdn.jsdelivr.net', 'host', 3],
      ['https://static.partner.com/a.js', 'url', 1],
      ['https://static.partner.com/b.js', 'url', 1],
      ['https://www.googletagmanager.com/gtm.js', 'url', 1],
    ]);
    expect(Object.fromEntries(s.left_out.map((l: { id: string; reason: string }) => [l.id, l.reason]))).toEqual({
      d0000000000000000000000000000001: 'malicious',
      e0000000000000000000000000000003: 'malicious',
      f0000000000000000000000000000001: 'reported-malicious',
      f0000000000000000000000000000002: 'malicious-connection',
      f0000000000000000000000000000003: 'not-active',
    });
    expect(s.expression).toBe('http.host eq "shop.example.com"');
    expect(s.command).toContain('policies create --zone shop --action log');
  });

  it('suggest: the printed command creates the policy as is', async () => {
    const r = await pg('policy', 'suggest', '--zone', 'shop');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(SUGGESTED);
    expect(r.stdout).toMatch(/^leaves out:$/m);
    const s = await json('policy', 'suggest', '--zone', 'shop');
    const created = await new LogfilterClient({ env }).pageGuard.createPolicy('shop-suggested', { action: 'log', expression: s.expression, value: s.value });
    expect(created.value).toBe(SUGGESTED);
  });

  it('suggest: --min-scripts-per-host 4 lists the shared host by URL instead', async () => {
    const s = await json('policy', 'suggest', '--zone', 'shop', '--min-scripts-per-host', '4');
    expect(s.value).toContain('https://cdn.jsdelivr.net/npm/a.js https://cdn.jsdelivr.net/npm/b.js https://cdn.jsdelivr.net/npm/c.js');
    expect(s.value).not.toMatch(/https:\/\/cdn\.jsdelivr\.net(\s|$)/);
  });

  it('check of the suggested value: every wanted script allowed, every unwanted one blocked, exit 0 even with --exit-code', async () => {
    const c = await json('policy', 'check', '--zone', 'shop', '--value', SUGGESTED, '--exit-code');
    expect(c).toMatchObject({ directive: 'script-src', breaks: 0 });
    const verdict = Object.fromEntries(c.scripts.map((v: { id: string; allowed: boolean; unwanted?: string }) => [v.id, [v.allowed, v.unwanted ?? null]]));
    expect(verdict).toEqual({
      a0000000000000000000000000000001: [true, null],
      a0000000000000000000000000000002: [true, null],
      b0000000000000000000000000000001: [true, null],
      b0000000000000000000000000000002: [true, null],
      b0000000000000000000000000000003: [true, null],
      c0000000000000000000000000000001: [true, null],
      e0000000000000000000000000000001: [true, null],
      e0000000000000000000000000000002: [true, null],
      d0000000000000000000000000000001: [false, 'malicious'],
      e0000000000000000000000000000003: [false, 'malicious'],
      f0000000000000000000000000000001: [false, 'reported-malicious'],
      f0000000000000000000000000000002: [false, 'malicious-connection'],
    });
  });

  it('check of a policy by id: what would break, with the source that allows each script; exit 1 only with --exit-code', async () => {
    const r = await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop', '--all-pages');
    expect(r.code).toBe(0);
    expect(row(r.stdout, 'https://www.googletagmanager.com/gtm.js')).toMatch(/^\s+BREAKS\s/);
    expect(row(r.stdout, 'https://cdn.jsdelivr.net/npm/a.js')).toMatch(/^\s+allowed\s+https:\/\/cdn\.jsdelivr\.net\s/);
    expect(row(r.stdout, 'https://shop.example.com/js/app.js')).toMatch(/^\s+allowed\s+'self'\s/);
    expect(row(r.stdout, 'https://evil.example.net/skimmer.js')).toMatch(/^!\s+blocked\s/);
    const c = await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop', '--json', '--exit-code', '--all-pages');
    expect(c.code).toBe(1);
    expect(JSON.parse(c.stdout)).toMatchObject({ allowed: 5, blocked: 7, breaks: 3 });
    // --expression and --all-pages contradict each other: a usage error before anything is sent
    const before = emu.requestCount;
    const both = await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop', '--all-pages', '--expression', 'http.host eq "shop.example.com"');
    expect([both.code, both.stdout]).toEqual([2, '']);
    expect(emu.requestCount).toBe(before);
  });

  it('check: the policy applies to the pages its expression matches (the rules evaluator over each page URL)', async () => {
    // policy p1's expression is http.request.uri.path contains "/checkout": three scripts were seen there
    const c = JSON.parse((await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop', '--json', '--exit-code')).stdout);
    expect(c).toMatchObject({ expression: 'http.request.uri.path contains "/checkout"', out_of_scope: 9, allowed: 2, blocked: 1, breaks: 0 });
    expect(c.scripts.map((v: { id: string }) => v.id).sort()).toEqual(['a0000000000000000000000000000001', 'a0000000000000000000000000000002', 'd0000000000000000000000000000001']);
    const home = JSON.parse((await pg('policy', 'check', '--zone', 'shop', '--value', "script-src 'self'", '--expression', 'http.request.uri.path eq "/" and ssl', '--json')).stdout);
    expect(home.out_of_scope).toBe(3);
    const text = await pg('policy', 'check', 'p1000000000000000000000000000001', '--zone', 'shop');
    expect(text.stdout).toContain('9 script(s) seen only on pages the expression does not match are left out');
    const bad = await pg('policy', 'check', '--zone', 'shop', '--value', "script-src 'self'", '--expression', 'http.request.uri.path matches "[a-z]{999}[0-9]{999}"');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--expression:1:31: error rule-eval');
    // a regex the engine cannot parse is refused by the checker, before evaluation, at the same place
    const broken = await pg('policy', 'check', '--zone', 'shop', '--value', "script-src 'self'", '--expression', 'http.request.uri.path matches "(a)\\1"');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('--expression:1:31: error rule-regex');
  });

  it('check: --status widens the scripts checked; a bad value or no value is refused', async () => {
    const c = JSON.parse((await pg('policy', 'check', '--zone', 'shop', '--value', SUGGESTED, '--status', 'active,infrequent', '--json')).stdout);
    expect(c.scripts.find((v: { id: string }) => v.id === 'f0000000000000000000000000000003')).toMatchObject({ allowed: false, reason: 'no-matching-source' });
    const bad = await pg('policy', 'check', '--zone', 'shop', '--value', "script-src 'slef'");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^--value:1:12: error unknown-keyword: /m);
    expect((await pg('policy', 'check', '--zone', 'shop')).code).toBe(2);
    expect((await pg('policy', 'check', 'p1', '--zone', 'shop', '--value', "script-src 'self'")).code).toBe(2);
  });
});

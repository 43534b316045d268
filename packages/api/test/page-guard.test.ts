/** The page monitoring client over real HTTP against the emulator fed by fixtures. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { ApiResponseError, CSV_COLUMNS, LogfilterClient, PageGuardApi, PageGuardInputError, PolicyValueError } from '@logfilter/api';
import { clientFor, failure } from './support.js';
import { fixture, hexId, manyScripts, SHOP_FIXTURE } from '../../../test/support/page-guard.js';

const TOKEN = 'pg-token';
let emu: RunningEmulator;
let client: LogfilterClient;
let pg: PageGuardApi;

const at = (minute: number) => new Date(Date.UTC(2026, 1, 1, 0, minute)).toISOString();
const ZONES = fixture({
  big: { scripts: manyScripts(250) },
  lists: {
    scripts: [
      { id: hexId(1, 1), url: 'https://shop.example.com/a.js', host: 'shop.example.com', first_page_url: 'https://shop.example.com/cart', first_seen_at: at(1), last_seen_at: at(50) },
      { id: hexId(1, 2), url: 'https://cdn.other.net/lib/b.js', host: 'blog.example.com', first_page_url: 'https://blog.example.com/post/1', first_seen_at: at(2), last_seen_at: at(40), js_integrity_score: 70 },
      { id: hexId(1, 3), url: 'https://cdn.other.net/lib/c.js', host: 'example.com', first_page_url: 'https://example.com/', first_seen_at: at(3), last_seen_at: at(30), status: 'infrequent' },
      { id: hexId(1, 4), url: 'https://example.com/cdn-cgi/x.js', host: 'example.com', first_seen_at: at(4), last_seen_at: at(20) },
      { id: hexId(1, 5), url: 'https://old.example.org/d.js', host: 'shop.example.com', first_seen_at: at(5), last_seen_at: at(10), status: 'inactive' },
      { id: hexId(1, 6), url: 'https://cdn.other.net/lib/e.js', host: 'shop.example.com', first_seen_at: at(6), last_seen_at: at(60), js_integrity_score: 99 },
    ],
  },
  dups: {
    scripts: [
      { id: hexId(2, 1), url: 'https://cdn.x.test/v1/a.js', host: 'www.x.test', hash: 'h1', first_seen_at: at(1), last_seen_at: at(5) },
      { id: hexId(2, 2), url: 'https://cdn.x.test/v2/a.js', host: 'www.x.test', hash: 'h1', first_seen_at: at(2), last_seen_at: at(9) },
      { id: hexId(2, 3), url: 'https://cdn.y.test/a.js', host: 'www.x.test', hash: 'h1', first_seen_at: at(3), last_seen_at: at(4) },
      { id: hexId(2, 4), url: 'https://cdn.x.test/a.js', host: 'api.x.test', hash: 'h1', first_seen_at: at(4), last_seen_at: at(4) },
      { id: hexId(2, 5), url: 'https://cdn.x.test/other.js', host: 'www.x.test', hash: 'h2', first_seen_at: at(5), last_seen_at: at(5) },
    ],
  },
  scores: {
    scripts: [
      { id: hexId(3, 49), url: 'https://s.test/49.js', js_integrity_score: 49 },
      { id: hexId(3, 50), url: 'https://s.test/50.js', js_integrity_score: 50 },
      { id: hexId(3, 51), url: 'https://s.test/51.js', js_integrity_score: 51 },
      { id: hexId(3, 0), url: 'https://s.test/none.js' },
    ],
  },
  conns: {
    connections: [
      { id: hexId(4, 1), url: 'https://api.c.test/x', first_seen_at: at(1) },
      { id: hexId(4, 2), url: 'https://bad.c.test/y', domain_reported_malicious: true, malicious_domain_categories: ['Malware'], first_seen_at: at(2) },
      { id: hexId(4, 3), url: 'https://c.test/z', url_reported_malicious: true, malicious_url_categories: ['Phishing', 'Phishing', 'Malware'], malicious_domain_categories: ['Malware'], first_seen_at: at(3) },
      { id: hexId(4, 4), url: 'https://c.test/cdn-cgi/rum', first_seen_at: at(4) },
    ],
  },
});
(ZONES.zones as Record<string, unknown>).shop = SHOP_FIXTURE.zones.shop;
(ZONES.accounts as Record<string, unknown>).acme = {};

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: ZONES });
  client = clientFor(emu.url, TOKEN);
  pg = client.pageGuard;
});
afterAll(() => emu.close());

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('settings', () => {
  it('reads the fixture settings and a fresh zone default, and PUT changes them and updated_at', async () => {
    // All four fields, as the provider answers: the one never set is false.
    expect(await pg.getSettings('shop')).toEqual({ enabled: true, updated_at: '2026-03-01T10:00:00Z', use_service_reporting_endpoint: true, use_connection_url_path: false });
    const fresh = await pg.getSettings('fresh-zone');
    expect(fresh.enabled).toBe(false);
    const a = await pg.updateSettings('fresh-zone', { enabled: true, use_connection_url_path: true });
    expect(a).toMatchObject({ enabled: true, use_connection_url_path: true });
    const b = await pg.updateSettings('fresh-zone', { enabled: false });
    expect(b.enabled).toBe(false);
    expect(b.use_connection_url_path).toBe(true);
    expect(Date.parse(b.updated_at!)).toBeGreaterThan(Date.parse(a.updated_at!));
    expect(Date.parse(a.updated_at!)).toBeGreaterThan(Date.parse(fresh.updated_at!));
    expect(await pg.getSettings('fresh-zone')).toEqual(b);
  });

  it('refuses bad settings before sending', async () => {
    const before = emu.requestCount;
    for (const body of [{}, { enabled: 'yes' }, { paused: true }] as object[]) {
      const e = await failure(pg.updateSettings('fresh-zone', body as never));
      expect(e).toBeInstanceOf(PageGuardInputError);
    }
    expect(emu.requestCount).toBe(before);
  });
});

describe('list parameters and their defaults', () => {
  it('lists only active items by default, without /cdn-cgi URLs, newest first seen first', async () => {
    expect(ids((await pg.listScripts('lists')).items)).toEqual([hexId(1, 6), hexId(1, 2), hexId(1, 1)]);
  });

  it('status: one or several of active, infrequent, inactive', async () => {
    expect(ids((await pg.listScripts('lists', { status: 'infrequent' })).items)).toEqual([hexId(1, 3)]);
    expect(ids((await pg.listScripts('lists', { status: ['inactive', 'infrequent'] })).items)).toEqual([hexId(1, 5), hexId(1, 3)]);
  });

  it('exclude_cdn_cgi=false keeps /cdn-cgi URLs', async () => {
    expect(ids((await pg.listScripts('lists', { exclude_cdn_cgi: false })).items)).toContain(hexId(1, 4));
    expect((await pg.listScripts('lists', { exclude_cdn_cgi: false })).items.find((s) => s.id === hexId(1, 4))?.url_contains_cdn_cgi_path).toBe(true);
  });

  it('hosts: exact, or * at the start and/or end; a comma list is any of them', async () => {
    const hosts = async (h: string | string[]) => ids((await pg.listScripts('lists', { hosts: h, status: ['active', 'infrequent'] })).items).sort();
    expect(await hosts('example.com')).toEqual([hexId(1, 3)]);
    expect(await hosts('*.example.com')).toEqual([hexId(1, 1), hexId(1, 2), hexId(1, 6)]);
    expect(await hosts('shop*')).toEqual([hexId(1, 1), hexId(1, 6)]);
    expect(await hosts('*log*')).toEqual([hexId(1, 2)]);
    expect(await hosts('example')).toEqual([]);
    expect(await hosts(['blog.example.com', 'example.com'])).toEqual([hexId(1, 2), hexId(1, 3)]);
  });

  it('page_url: the pages an item was seen on, with the same wildcards', async () => {
    expect(ids((await pg.listScripts('lists', { page_url: 'https://shop.example.com/cart' })).items)).toEqual([hexId(1, 1)]);
    expect(ids((await pg.listScripts('lists', { page_url: '*/post/*' })).items)).toEqual([hexId(1, 2)]);
    expect(ids((await pg.listScripts('lists', { page_url: 'https://blog.example.com*' })).items)).toEqual([hexId(1, 2)]);
  });

  it('urls and exclude_urls: substrings of the item URL', async () => {
    expect(ids((await pg.listScripts('lists', { urls: 'cdn.other' })).items)).toEqual([hexId(1, 6), hexId(1, 2)]);
    expect(ids((await pg.listScripts('lists', { urls: ['/e.js', '/a.js'] })).items)).toEqual([hexId(1, 6), hexId(1, 1)]);
    expect(ids((await pg.listScripts('lists', { exclude_urls: 'cdn.other' })).items)).toEqual([hexId(1, 1)]);
  });

  it('order_by and direction', async () => {
    expect(ids((await pg.listScripts('lists', { direction: 'asc' })).items)).toEqual([hexId(1, 1), hexId(1, 2), hexId(1, 6)]);
    expect(ids((await pg.listScripts('lists', { order_by: 'last_seen_at' })).items)).toEqual([hexId(1, 6), hexId(1, 1), hexId(1, 2)]);
    expect(ids((await pg.listScripts('lists', { order_by: 'last_seen_at', direction: 'asc' })).items)).toEqual([hexId(1, 2), hexId(1, 1), hexId(1, 6)]);
  });

  it('prioritize_malicious puts malicious items first, keeping the order within each group', async () => {
    const items = (await pg.listScripts('lists', { direction: 'asc', prioritize_malicious: true })).items;
    expect(ids(items)).toEqual([hexId(1, 2), hexId(1, 6), hexId(1, 1)]);
    expect(items.map((s) => s.malicious)).toEqual([true, true, false]);
    expect(ids((await pg.listScripts('lists', { direction: 'asc', prioritize_malicious: false })).items)).toEqual([hexId(1, 1), hexId(1, 2), hexId(1, 6)]);
  });

  it('exclude_duplicates (default true): same hash, URL host and zone host keep only the newest', async () => {
    expect(ids((await pg.listScripts('dups', { direction: 'asc' })).items)).toEqual([hexId(2, 2), hexId(2, 3), hexId(2, 4), hexId(2, 5)]);
    expect(ids((await pg.listScripts('dups', { direction: 'asc', exclude_duplicates: false })).items)).toEqual([1, 2, 3, 4, 5].map((n) => hexId(2, n)));
  });

  it('connections take the same filters; cookies their own', async () => {
    expect(ids((await pg.listConnections('conns', { direction: 'asc' })).items)).toEqual([hexId(4, 1), hexId(4, 2), hexId(4, 3)]);
    expect(ids((await pg.listConnections('conns', { direction: 'asc', exclude_cdn_cgi: false })).items)).toContain(hexId(4, 4));
    expect(ids((await pg.listConnections('conns', { prioritize_malicious: true, direction: 'asc' })).items)).toEqual([hexId(4, 2), hexId(4, 3), hexId(4, 1)]);
    const cookies = async (p: object) => (await pg.listCookies('shop', p)).items.map((c) => c.name).sort();
    expect(await cookies({})).toEqual(['_ga', 'session']);
    expect(await cookies({ http_only: true })).toEqual(['session']);
    expect(await cookies({ secure: false })).toEqual(['_ga']);
    expect(await cookies({ same_site: 'none' })).toEqual(['_ga']);
    expect(await cookies({ type: 'first_party' })).toEqual(['session']);
    expect(await cookies({ name: '_*' })).toEqual(['_ga']);
    expect(await cookies({ domain: '*example.com' })).toEqual(['_ga', 'session']);
    expect(await cookies({ domain: '.example.com' })).toEqual(['_ga']);
    expect(await cookies({ path: '/' })).toEqual(['_ga', 'session']);
  });
});

describe('paging', () => {
  it('walks 250 scripts with per_page 100: three pages with a correct result_info', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await pg.listScripts('big', { page, per_page: 100 }));
    expect(pages.map((p) => p.items.length)).toEqual([100, 100, 50]);
    expect(pages.map((p) => p.info)).toEqual([1, 2, 3].map((page) => ({ page, per_page: 100, count: page === 3 ? 50 : 100, total_count: 250, total_pages: 3 })));
    expect(new Set(pages.flatMap((p) => ids(p.items))).size).toBe(250);
    const beyond = await pg.listScripts('big', { page: 4, per_page: 100 });
    expect(beyond.items).toEqual([]);
    expect(beyond.info).toMatchObject({ page: 4, count: 0, total_count: 250, total_pages: 3 });
  });

  it('the default page size is 20', async () => {
    expect((await pg.listScripts('big')).info).toEqual({ page: 1, per_page: 20, count: 20, total_count: 250, total_pages: 13 });
  });

  it('the async iterator follows result_info through every page, in order, one request per page', async () => {
    const before = emu.requestCount;
    const all = [];
    for await (const s of pg.scripts('big', { per_page: 100, direction: 'asc' })) all.push(s.id);
    expect(emu.requestCount - before).toBe(3);
    expect(all).toEqual(manyScripts(250).map((s) => s.id));
    expect(ids(await pg.allScripts('big', { per_page: 7 }))).toHaveLength(250);
  });

  it('page=all: everything in one page, without versions and categories', async () => {
    const all = await pg.listScripts('shop', { page: 'all' });
    expect(all.items).toHaveLength(12);
    expect(all.info).toEqual({ page: 1, per_page: 12, count: 12, total_count: 12, total_pages: 1 });
    for (const s of all.items) {
      expect(s).not.toHaveProperty('versions');
      expect(s).not.toHaveProperty('malicious_domain_categories');
      expect(s).not.toHaveProperty('malicious_url_categories');
    }
    const paged = await pg.listScripts('shop', { per_page: 100 });
    expect(paged.items.find((s) => s.id === 'd0000000000000000000000000000001')?.malicious_url_categories).toEqual(['Phishing', 'Magecart']);
  });
});

describe('export=csv', () => {
  it('answers the whole filtered list as CSV with the documented columns', async () => {
    const csv = await pg.exportScripts('lists', { status: ['active', 'infrequent'], direction: 'asc' });
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe(CSV_COLUMNS.scripts.join(','));
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([hexId(1, 1), hexId(1, 2), hexId(1, 3), hexId(1, 6)]);
    const big = await pg.exportScripts('big');
    expect(big.trimEnd().split('\n')).toHaveLength(251);
    const cookies = await pg.exportCookies('shop');
    expect(cookies.split('\n')[0]).toBe(CSV_COLUMNS.cookies.join(','));
    const conns = await pg.exportConnections('conns');
    expect(conns.split('\n')[0]).toBe(CSV_COLUMNS.connections.join(','));
  });

  it('writes arrays joined with | and categories as given', async () => {
    const csv = await pg.exportConnections('shop');
    const row = csv.split('\n').find((l) => l.startsWith('c1000000000000000000000000000002'))!;
    expect(row).toContain(',Command-and-Control (C2) & Botnet,');
    const csv2 = await pg.exportScripts('shop');
    expect(csv2.split('\n').find((l) => l.startsWith('d0000000000000000000000000000001'))).toContain('Malware|Phishing');
  });
});

describe('list parameters are checked before sending', () => {
  it.each([
    ['per_page 0', { per_page: 0 }, 'per_page'],
    ['per_page 101', { per_page: 101 }, 'per_page'],
    ['per_page 2.5', { per_page: 2.5 }, 'per_page'],
    ['page 0', { page: 0 }, 'page'],
    ['page "last"', { page: 'last' }, 'page'],
    ['order_by', { order_by: 'added_at' }, 'order_by'],
    ['direction', { direction: 'up' }, 'direction'],
    ['status', { status: 'deleted' }, 'status'],
    ['status in a list', { status: ['active', 'gone'] }, 'status'],
    ['hosts with an inner *', { hosts: 'a.*.com' }, 'hosts'],
    ['hosts empty item', { hosts: ['a.com', ''] }, 'hosts'],
    ['empty list', { urls: [] }, 'urls'],
    ['unknown parameter', { sort: 'x' }, 'sort'],
    ['cookie-only parameter on scripts', { same_site: 'lax' }, 'same_site'],
    ['page=all with per_page', { page: 'all', per_page: 10 }, 'per_page'],
  ])('%s', async (_name, params, field) => {
    const before = emu.requestCount;
    const e = await failure(pg.listScripts('lists', params as never));
    expect(e).toBeInstanceOf(PageGuardInputError);
    expect((e as PageGuardInputError).field).toBe(field);
    expect(emu.requestCount).toBe(before);
  });

  it('refuses a zone id that URL parsing would resolve away (. and ..) before sending anything', async () => {
    const before = emu.requestCount;
    for (const zone of ['.', '..']) {
      for (const call of [pg.getSettings(zone), pg.listScripts(zone), pg.listPolicies(zone)]) {
        const e = await failure(call);
        expect([e instanceof PageGuardInputError, (e as PageGuardInputError).field], zone).toEqual([true, 'zone']);
      }
    }
    expect(emu.requestCount).toBe(before);
  });

  it('cookies refuse script parameters; exports refuse paging', async () => {
    expect(((await failure(pg.listCookies('shop', { status: 'active' } as never))) as PageGuardInputError).field).toBe('status');
    expect(((await failure(pg.listCookies('shop', { same_site: 'lenient' } as never))) as PageGuardInputError).field).toBe('same_site');
    for (const field of ['name', 'path', 'domain']) {
      const e = await failure(pg.listCookies('shop', { [field]: 'x'.repeat(1025) } as never));
      expect([e instanceof PageGuardInputError, (e as PageGuardInputError).field]).toEqual([true, field]);
    }
    expect(((await failure(pg.exportScripts('shop', { page: 2 } as never))) as PageGuardInputError).field).toBe('page');
    expect(((await failure(pg.exportScripts('shop', { per_page: 2 } as never))) as PageGuardInputError).field).toBe('per_page');
  });
});

describe('derived fields: malicious and categories', () => {
  it('a score strictly above 50 is malicious by default: 49 and 50 are not, 51 is; no score is not', async () => {
    const byId = Object.fromEntries((await pg.allScripts('scores')).map((s) => [s.id, s.malicious]));
    expect(byId).toEqual({ [hexId(3, 49)]: false, [hexId(3, 50)]: false, [hexId(3, 51)]: true, [hexId(3, 0)]: false });
  });

  it('direction reversed (below): 49 is malicious, 50 and 51 are not; the threshold is settable too', async () => {
    const below = new LogfilterClient({ env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN }, malicious: { direction: 'below' } }).pageGuard;
    expect(Object.fromEntries((await below.allScripts('scores')).map((s) => [s.id, s.malicious]))).toEqual({ [hexId(3, 49)]: true, [hexId(3, 50)]: false, [hexId(3, 51)]: false, [hexId(3, 0)]: false });
    const at49 = new PageGuardApi(client, { malicious: { threshold: 49 } });
    expect(Object.fromEntries((await at49.allScripts('scores')).map((s) => [s.id, s.malicious]))).toEqual({ [hexId(3, 49)]: false, [hexId(3, 50)]: true, [hexId(3, 51)]: true, [hexId(3, 0)]: false });
    expect(() => new PageGuardApi(client, { malicious: { direction: 'sideways' as never } })).toThrow(PageGuardInputError);
  });

  it('connections are malicious by their reported flags; categories are merged without duplicates', async () => {
    const cs = await pg.allConnections('conns', { direction: 'asc' });
    expect(cs.map((c) => [c.malicious, c.categories])).toEqual([
      [false, []],
      [true, ['Malware']],
      [true, ['Malware', 'Phishing']],
    ]);
    const s = await pg.getScript('shop', 'd0000000000000000000000000000001');
    expect(s.categories).toEqual(['Malware', 'Phishing', 'Magecart']);
    expect(s.malicious).toBe(true);
  });

  it('never sends the derived fields', async () => {
    const seen: string[] = [];
    const spy = new LogfilterClient({
      env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN },
      fetch: (url, init) => {
        seen.push(`${String(url)} ${String(init?.body ?? '')}`);
        return fetch(url, init);
      },
    }).pageGuard;
    await spy.allScripts('scores');
    expect(seen.join('\n')).not.toMatch(/malicious|categor|threshold/);
  });
});

describe('single items', () => {
  it('a script comes with page_urls and versions; list items without versions', async () => {
    const s = await pg.getScript('shop', 'a0000000000000000000000000000001');
    expect(s).toMatchObject({ url: 'https://shop.example.com/js/app.js', page_urls: ['https://shop.example.com/checkout'], versions: [{ hash: 'aa01', js_integrity_score: 10 }], status: 'active' });
    const listed = (await pg.listScripts('shop', { per_page: 100 })).items.find((x) => x.id === s.id)!;
    expect(listed).not.toHaveProperty('versions');
  });

  it('a connection and a cookie', async () => {
    expect(await pg.getConnection('conns', hexId(4, 2))).toMatchObject({ url: 'https://bad.c.test/y', malicious: true });
    expect(await pg.getCookie('shop', 'k1000000000000000000000000000001')).toMatchObject({ name: 'session', http_only_attribute: true });
  });

  it('unknown ids are 404s with their own codes', async () => {
    const codes = [];
    for (const p of [pg.getScript('shop', 'nope'), pg.getConnection('shop', 'nope'), pg.getCookie('shop', 'nope'), pg.getPolicy('shop', 'nope')]) {
      const e = await failure(p);
      expect(e).toBeInstanceOf(ApiResponseError);
      expect(e.status).toBe(404);
      codes.push(e.code);
    }
    expect(codes).toEqual([12002, 12003, 12004, 12005]);
  });
});

describe('policies', () => {
  it('create, get, list, update and delete; enabled read as a boolean from the text form', async () => {
    const listed = await pg.listPolicies('shop');
    expect(listed).toEqual([expect.objectContaining({ id: 'p1000000000000000000000000000001', enabled: true })]);
    const created = await pg.createPolicy('pol', { description: 'all', action: 'log', expression: 'http.host eq "a.test"', enabled: false, value: "script-src 'self' https://cdn.a.test" });
    expect(created).toMatchObject({ description: 'all', action: 'log', enabled: false, value: "script-src 'self' https://cdn.a.test" });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await pg.getPolicy('pol', created.id)).toEqual(created);
    const updated = await pg.updatePolicy('pol', created.id, { action: 'allow', enabled: true });
    expect(updated).toEqual({ ...created, action: 'allow', enabled: true });
    expect(await pg.listPolicies('pol')).toEqual([updated]);
    await pg.deletePolicy('pol', created.id);
    expect(await pg.listPolicies('pol')).toEqual([]);
    expect((await failure(pg.deletePolicy('pol', created.id))).status).toBe(404);
  });

  it('accepts every action of the table', async () => {
    for (const action of ['log', 'allow', 'add_reporting_directives'] as const) {
      expect((await pg.createPolicy('pol-actions', { action, expression: 'true', value: "script-src 'self'" })).action).toBe(action);
    }
  });

  it('checks a policy before sending: action, expression, and each kind of bad source with its offsets', async () => {
    const before = emu.requestCount;
    const bad = async (body: object) => (await failure(pg.createPolicy('pol', body as never))) as PageGuardInputError;
    expect((await bad({ action: 'block', expression: 'true', value: "script-src 'self'" })).field).toBe('action');
    expect((await bad({ action: 'log', expression: ' ', value: "script-src 'self'" })).field).toBe('expression');
    expect((await bad({ action: 'log', value: "script-src 'self'" })).field).toBe('expression');
    expect((await bad({ action: 'log', expression: 'true', value: "script-src 'self'", enabled: 'true' })).field).toBe('enabled');
    expect((await bad({ action: 'log', expression: 'true', value: "script-src 'self'", colour: 'red' })).field).toBe('colour');
    const value = "script-src 'self' https://ok.test cdn.*.bad.test";
    const e = await bad({ action: 'log', expression: 'true', value });
    expect(e).toBeInstanceOf(PolicyValueError);
    expect((e as PolicyValueError).diagnostics.map((d) => [d.code, value.slice(d.start, d.end)])).toEqual([['invalid-host', 'cdn.*.bad.test']]);
    expect(((await failure(pg.updatePolicy('pol', 'x', { value: 'img-src *' }))) as PolicyValueError).diagnostics[0].code).toBe('unsupported-directive');
    expect(((await failure(pg.updatePolicy('pol', 'x', {}))) as PageGuardInputError).field).toBe('body');
    expect(emu.requestCount).toBe(before);
  });

  it('takes a policy as read back, its read-only id included, and does not send the id (the provider ignores it)', async () => {
    const sent: unknown[] = [];
    const spy = new LogfilterClient({
      baseUrl: emu.url,
      token: TOKEN,
      env: {},
      fetch: (url, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
        return fetch(url, init);
      },
    });
    const original = await pg.createPolicy('pol-copy', { description: 'to copy', action: 'log', expression: 'http.host eq "a.test"', value: "script-src 'self'" });
    // a copy to another zone, as read: a new policy with its own id
    const copy = await spy.pageGuard.createPolicy('pol-copy-2', original);
    expect(copy).toEqual({ ...original, id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(copy.id).not.toBe(original.id);
    // an update with the whole answer, changed
    const updated = await spy.pageGuard.updatePolicy('pol-copy', original.id, { ...original, id: 'ignored', enabled: false });
    expect(updated).toEqual({ ...original, enabled: false });
    expect(sent.map((b) => Object.keys(b as object).includes('id'))).toEqual([false, false]);
    // an id alone changes nothing: refused before sending
    expect(((await failure(pg.updatePolicy('pol-copy', original.id, { id: original.id } as never))) as PageGuardInputError).field).toBe('body');
    // the emulator, sent an id raw, ignores it as the provider does
    const raw = await fetch(`${emu.url}/zones/pol-copy/page_shield/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'f'.repeat(32), action: 'log', expression: 'true', value: "script-src 'self'" }),
    });
    const answer = (await raw.json()) as { success: boolean; result: { id: string } };
    expect([raw.status, answer.success]).toEqual([200, true]);
    expect(answer.result.id).not.toBe('f'.repeat(32));
  });
});

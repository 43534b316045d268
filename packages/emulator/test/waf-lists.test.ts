/**
 * The previous WAF's lists (packages, groups, rules, overrides) take the query parameters of the provider's OpenAPI
 * document (test/fixtures/openapi): `page`, `per_page` (default 50, 5 to 100), and on packages, groups and rules the
 * search parameters (`name`, `mode`, `group_id`, `description`, `priority`, `rules_count`) joined by `match`
 * (`all`, the default, or `any`), sorted by `order` and `direction`. Before, every parameter but the paging ones was
 * ignored (a search answered the whole list) and `per_page` had the other lists' default and limit (20, 1000).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `waf-lists-${++zn}`;
// The default previous WAF of a zone (emulator README, "Fixture file").
const CLOUDFLARE = 'a25a9a7e9c00afc1fb2e0245519d725b';
const SPECIALS = 'de677e5818985db1285d0e80225f06e5';
const WORDPRESS = 'a8f7ae6ff15afb0c1c6ac2bff25ad9e4';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const ids = (r: { body: { result: { id: string }[] } }) => r.body.result.map((x) => x.id);
const refused = (r: { status: number; body: any }) => [r.status, r.body.success, r.body.errors[0].code, r.body.errors[0].source?.pointer];

describe('previous WAF lists: paging as the schema gives it', () => {
  it('pages by 50 by default and takes per_page from 5 to 100', async () => {
    const z = zone();
    const W = `/zones/${z}/firewall/waf`;
    for (const path of [`${W}/packages`, `${W}/packages/${CLOUDFLARE}/groups`, `${W}/packages/${CLOUDFLARE}/rules`, `${W}/overrides`]) {
      expect((await call('GET', path)).body.result_info.per_page).toBe(50);
      expect((await call('GET', `${path}?per_page=5`)).body.result_info.per_page).toBe(5);
      expect((await call('GET', `${path}?per_page=100`)).body.result_info.per_page).toBe(100);
      for (const q of ['per_page=4', 'per_page=101', 'per_page=1000']) expect(refused(await call('GET', `${path}?${q}`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
      expect(refused(await call('GET', `${path}?page=0`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/page']);
      // Beyond the last page: an empty page, the totals still told.
      const beyond = await call('GET', `${path}?page=9`);
      expect([beyond.status, beyond.body.result, beyond.body.result_info.page]).toEqual([200, [], 9]);
    }
  });

  it('refuses a parameter the list does not take, naming it', async () => {
    const W = `/zones/${zone()}/firewall/waf`;
    expect(refused(await call('GET', `${W}/packages?nme=CloudFlare`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/nme']);
    expect(refused(await call('GET', `${W}/overrides?name=x`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/name']);
    expect(refused(await call('GET', `${W}/packages?order=bogus`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/order']);
    expect(refused(await call('GET', `${W}/packages?direction=up`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/direction']);
    expect(refused(await call('GET', `${W}/packages?match=some`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/match']);
    expect(refused(await call('GET', `${W}/packages/${CLOUDFLARE}/rules?mode=block`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/mode']);
    expect(refused(await call('GET', `${W}/packages/${CLOUDFLARE}/groups?mode=maybe`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/mode']);
    expect(refused(await call('GET', `${W}/packages/${CLOUDFLARE}/groups?rules_count=many`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/rules_count']);
  });
});

describe('previous WAF lists: search and order', () => {
  it('finds packages by name (any case, part of it) and orders them by name', async () => {
    const W = `/zones/${zone()}/firewall/waf`;
    expect((await call('GET', `${W}/packages?name=cloudflare`)).body.result.map((p: { name: string }) => p.name)).toEqual(['CloudFlare']);
    expect((await call('GET', `${W}/packages?name=core%20rule`)).body.result.map((p: { name: string }) => p.name)).toEqual(['OWASP ModSecurity Core Rule Set']);
    const asc = await call('GET', `${W}/packages?order=name`);
    expect(asc.body.result.map((p: { name: string }) => p.name)).toEqual(['CloudFlare', 'OWASP ModSecurity Core Rule Set']);
    const desc = await call('GET', `${W}/packages?order=name&direction=desc`);
    expect(desc.body.result.map((p: { name: string }) => p.name)).toEqual(['OWASP ModSecurity Core Rule Set', 'CloudFlare']);
    const none = await call('GET', `${W}/packages?name=nothing`);
    expect([none.body.result, none.body.result_info.total_count]).toEqual([[], 0]);
  });

  it('finds groups by mode, name and rules_count, and orders them by rules_count', async () => {
    const W = `/zones/${zone()}/firewall/waf/packages/${CLOUDFLARE}/groups`;
    expect(ids(await call('GET', `${W}?mode=off`))).toEqual([WORDPRESS]);
    expect(ids(await call('GET', `${W}?name=special`))).toEqual([SPECIALS]);
    expect(ids(await call('GET', `${W}?rules_count=1`))).toEqual([WORDPRESS]);
    expect(ids(await call('GET', `${W}?mode=off&name=special`))).toEqual([]);
    expect(ids(await call('GET', `${W}?mode=off&name=special&match=any`))).toEqual([SPECIALS, WORDPRESS]);
    expect(ids(await call('GET', `${W}?order=rules_count`))).toEqual([WORDPRESS, SPECIALS]);
    expect(ids(await call('GET', `${W}?order=rules_count&direction=desc`))).toEqual([SPECIALS, WORDPRESS]);
  });

  it('finds rules by the mode they were overridden to, group, description and priority, and orders them', async () => {
    const z = zone();
    const W = `/zones/${z}/firewall/waf/packages/${CLOUDFLARE}/rules`;
    expect((await call('PATCH', `${W}/100016`, { mode: 'simulate' })).status).toBe(200);
    expect((await call('PATCH', `${W}/WP0025`, { mode: 'disable' })).status).toBe(200);
    expect(ids(await call('GET', `${W}?mode=SIM`))).toEqual(['100016']);
    expect(ids(await call('GET', `${W}?mode=DIS`))).toEqual(['WP0025']);
    // A rule left at its default is not overridden, whatever its default mode.
    expect(ids(await call('GET', `${W}?mode=BLK`))).toEqual([]);
    expect(ids(await call('GET', `${W}?group_id=${WORDPRESS}`))).toEqual(['WP0025']);
    expect(ids(await call('GET', `${W}?description=xss`))).toEqual(['100173']);
    expect(ids(await call('GET', `${W}?priority=20`))).toEqual(['100173']);
    expect(ids(await call('GET', `${W}?priority=5&group_id=${WORDPRESS}&match=any`))).toEqual(['100015', 'WP0025']);
    // Priorities are numbers written as strings: 5, 6, 20, 30 (not "20" < "5").
    expect(ids(await call('GET', `${W}?order=priority&direction=desc`))).toEqual(['WP0025', '100173', '100016', '100015']);
    expect(ids(await call('GET', `${W}?order=description`))).toEqual(['100016', '100015', 'WP0025', '100173']);
    const page = await call('GET', `${W}?order=priority&per_page=5&page=1`);
    expect([ids(page), page.body.result_info]).toEqual([['100015', '100016', '100173', 'WP0025'], { page: 1, per_page: 5, count: 4, total_count: 4, total_pages: 1 }]);
  });
});

describe('paged lists name the paging parameter at fault', () => {
  it('answers page, per_page and cursor errors with the parameter as source.pointer', async () => {
    const z = zone();
    expect(refused(await call('GET', `/zones/${z}/logexport/jobs?page=0`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/page']);
    expect(refused(await call('GET', `/zones/${z}/logexport/jobs?per_page=1001`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
    expect(refused(await call('GET', `/zones/${z}/rulesets?per_page=0`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
    expect(refused(await call('GET', `/zones/${z}/rulesets?page=2`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/page']);
    expect(refused(await call('GET', `/zones/${z}/rulesets?cursor=zzz`))).toEqual([400, false, ERROR_CODES.invalidCursor, '/cursor']);
    expect(refused(await call('GET', `/accounts/waf-lists-account/rulesets?per_page=abc`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
  });
  it('refuses a parameter given twice rather than reading one of them (as page monitoring lists do)', async () => {
    const z = zone();
    expect(refused(await call('GET', `/zones/${z}/logexport/jobs?per_page=5&per_page=10`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
    expect(refused(await call('GET', `/zones/${z}/rulesets?per_page=5&per_page=10`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/per_page']);
    expect(refused(await call('GET', `/zones/${z}/firewall/waf/packages?page=1&page=2`))).toEqual([400, false, ERROR_CODES.invalidPaging, '/page']);
    expect(refused(await call('GET', `/zones/${z}/firewall/waf/packages?name=a&name=b`))).toEqual([400, false, ERROR_CODES.wafInvalid, '/name']);
  });
  it('answers a migration query parameter outside the contract with the parameter as source.pointer', async () => {
    const z = zone();
    expect(refused(await call('GET', `/zones/${z}/waf_migration/check?phase_two=2`))).toEqual([400, false, ERROR_CODES.migrationParameter, '/phase_two']);
    const put = await call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=soon&phase_two=1`, { name: 'default', rules: [] });
    expect(refused(put)).toEqual([400, false, ERROR_CODES.migrationParameter, '/waf_migration']);
  });
});

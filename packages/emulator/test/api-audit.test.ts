/**
 * Departures found by the acceptance audit against the contract (the emulator README's areas and the
 * provider's OpenAPI document, test/fixtures/openapi), each checked over real HTTP as a user's SDK sends it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, stateFromFixture, FixtureError, AREAS, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `audit-api-zone-${++zn}`;
const DEST = 's3://logs-bucket/http?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe('log export jobs: the fields the provider\'s schema makes nullable', () => {
  // logpush_dataset and logpush_frequency are "nullable": true in the OpenAPI document; an SDK that serialises
  // an unset optional field as null sends them so. null means "not given": the default on create, unchanged on update.
  it('takes dataset: null and frequency: null on create as the defaults', async () => {
    const z = zone();
    const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, dataset: null, frequency: null, name: null });
    expect(c.status).toBe(200);
    expect(c.body.result).toMatchObject({ dataset: 'http_requests', frequency: 'high', name: null });
  });

  it('takes dataset: null and frequency: null on update as "unchanged"', async () => {
    const z = zone();
    const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, dataset: 'dns_logs', frequency: 'low' });
    expect(c.status).toBe(200);
    const u = await call('PUT', `/zones/${z}/logpush/jobs/${c.body.result.id}`, { dataset: null, frequency: null, enabled: true });
    expect(u.status).toBe(200);
    expect(u.body.result).toMatchObject({ dataset: 'dns_logs', frequency: 'low', enabled: true });
  });

  it('still refuses a dataset or frequency of the wrong type or value, with the field named', async () => {
    const z = zone();
    for (const [body, pointer] of [[{ dataset: 5 }, '/dataset'], [{ frequency: 'mid' }, '/frequency'], [{ dataset: '' }, '/dataset']] as const) {
      const r = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, ...body });
      expect([r.status, r.body.success, r.body.errors[0].source?.pointer]).toEqual([400, false, pointer]);
    }
  });
});

describe('page monitoring fixtures: timestamps are ISO 8601 UTC (description 2.1)', () => {
  const withScript = (extra: Record<string, unknown>) => ({ zones: { z1: { page_guard: { scripts: [{ id: 'ab', url: 'https://cdn.example.com/a.js', ...extra }] } } } });

  it('refuses a timestamp that is not one, naming its place', () => {
    for (const [field, value] of [['first_seen_at', 'yesterday'], ['last_seen_at', '2024-13-01T00:00:00Z'], ['added_at', '2024-01-01'], ['fetched_at', '2024-01-01T00:00:00+02:00'], ['first_seen_at', '2024-02-30T00:00:00Z']] as const) {
      const fixture = withScript({ [field]: value });
      expect(() => stateFromFixture(fixture, AREAS), `${field}: ${value}`).toThrow(FixtureError);
      expect(() => stateFromFixture(fixture, AREAS)).toThrow(new RegExp(`^zones\\.z1\\.page_guard\\.scripts\\[0\\]\\.${field}:`));
    }
    const settings = { zones: { z1: { page_guard: { settings: { enabled: true, updated_at: '1 Jan 2024' } } } } };
    expect(() => stateFromFixture(settings, AREAS)).toThrow(/^zones\.z1\.page_guard\.settings\.updated_at:/);
    const cookie = { zones: { z1: { page_guard: { cookies: [{ id: 'c', last_seen_at: 1704067200 }] } } } };
    expect(() => stateFromFixture(cookie, AREAS)).toThrow(/^zones\.z1\.page_guard\.cookies\[0\]\.last_seen_at:/);
    const version = withScript({ versions: [{ hash: 'ab', fetched_at: 'now' }] });
    expect(() => stateFromFixture(version, AREAS)).toThrow(/^zones\.z1\.page_guard\.scripts\[0\]\.versions\[0\]\.fetched_at:/);
  });

  it('takes whole and fractional seconds with Z', () => {
    const state = stateFromFixture(withScript({ first_seen_at: '2024-01-01T00:00:00Z', last_seen_at: '2024-02-01T10:20:30.123456Z' }), AREAS);
    expect(JSON.stringify(state)).toContain('2024-02-01T10:20:30.123456Z');
  });
});

describe('log export jobs: the filter is the object encoded once (description 2.8)', () => {
  const FILTER = { where: { key: 'ClientIP', operator: 'eq', value: '192.0.2.1' } };

  it('refuses a filter encoded twice (a JSON string holding the JSON string), on create and update, with 1002', async () => {
    const z = zone();
    const twice = JSON.stringify(JSON.stringify(FILTER));
    const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, filter: twice });
    expect([c.status, c.body.success, c.body.errors[0].code, c.body.errors[0].source?.pointer]).toEqual([400, false, 1002, '/filter']);
    expect((await call('GET', `/zones/${z}/logpush/jobs`)).body.result).toEqual([]);

    const ok = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, filter: JSON.stringify(FILTER) });
    expect(ok.status).toBe(200);
    const u = await call('PUT', `/zones/${z}/logpush/jobs/${ok.body.result.id}`, { filter: twice });
    expect([u.status, u.body.errors[0].code]).toEqual([400, 1002]);
    expect((await call('GET', `/zones/${z}/logpush/jobs/${ok.body.result.id}`)).body.result.filter).toBe(JSON.stringify(FILTER));
  });

  it('refuses other JSON values that are not a filter object (a number, an array) with the filter named', async () => {
    const z = zone();
    for (const filter of ['5', '[]', 'true']) {
      const r = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, filter });
      expect([r.status, r.body.success, r.body.errors[0].source?.pointer], filter).toEqual([400, false, '/filter']);
    }
  });
});

describe('rulesets lists are paged by cursor (API facts, section 2)', () => {
  // A page number was ignored: page=2 answered the first page again, so a client paging by number never reached
  // an empty page and looped for ever. It is refused as a paging error naming the cursor to use.
  it('refuses page=N with 10022 on zone and account lists, and still pages by cursor', async () => {
    const z = zone();
    for (let i = 1; i <= 3; i++) expect((await call('POST', `/zones/${z}/rulesets`, { name: `r${i}`, kind: 'custom', phase: 'http_request_firewall_custom' })).status).toBe(200);
    for (const path of [`/zones/${z}/rulesets?page=2`, `/zones/${z}/rulesets?page=1&per_page=2`, `/accounts/audit-api-account/rulesets?page=2`]) {
      const r = await call('GET', path);
      expect([r.status, r.body.success, r.body.errors[0].code], path).toEqual([400, false, 10022]);
    }
    const first = await call('GET', `/zones/${z}/rulesets?per_page=2`);
    const next = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${first.body.result_info.cursor}`);
    expect([...first.body.result, ...next.body.result].map((r: any) => r.name).slice(0, 3)).toEqual(['r1', 'r2', 'r3']);
  });
});

describe('the policies list takes no parameters (description 4.1)', () => {
  // It is one page of every policy; page=2 answered that page again (result_info.page 1), as any other parameter
  // was ignored, where the scripts, connections and cookies lists refuse an unknown one (12001).
  it('refuses a query parameter with 12001 naming it, in both spellings', async () => {
    const z = zone();
    for (const seg of ['page_guard', 'page_shield']) {
      for (const q of ['page=2', 'per_page=5', 'status=active']) {
        const r = await call('GET', `/zones/${z}/${seg}/policies?${q}`);
        expect([r.status, r.body.success, r.body.errors[0].code, r.body.errors[0].source?.pointer], q).toEqual([400, false, 12001, `/${q.split('=')[0]}`]);
      }
      const ok = await call('GET', `/zones/${z}/${seg}/policies`);
      expect([ok.status, ok.body.result]).toEqual([200, []]);
    }
  });
});

describe('logpull_options copied from a logpull call (the provider\'s schema: "the url (full url or just the query string)")', () => {
  it('takes the full URL of a logpull call and its query string, start and end included', async () => {
    const z = zone();
    for (const options of [
      'https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/logs/received?start=2024-01-01T00:00:00Z&end=2024-01-01T01:00:00Z&fields=ClientIP,EdgeResponseStatus&timestamps=rfc3339',
      '?fields=ClientIP&timestamps=unix',
      'start=2024-01-01T00:00:00Z&end=2024-01-01T01:00:00Z&fields=ClientIP',
    ]) {
      const r = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, logpull_options: options });
      expect([r.status, r.body.result?.logpull_options], options).toEqual([200, options]);
    }
  });

  it('still checks the options of a full URL', async () => {
    const z = zone();
    const r = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, logpull_options: 'https://api.cloudflare.com/client/v4/zones/z/logs/received?fields=Nope' });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source?.pointer]).toEqual([400, 1006, '/logpull_options']);
  });
});

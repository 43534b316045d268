import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { ALIASES } from '../src/aliases.js';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe("the provider's spelling and the neutral one (one alias table)", () => {
  it('has one row per word, each word in one row', () => {
    const words = ALIASES.flatMap((a) => [a.neutral, a.provider]);
    expect(new Set(words).size).toBe(words.length);
  });

  it('serves a page monitoring setting at both paths, each answer in the spelling of its request', async () => {
    const put = await call('PUT', '/zones/alias1/page_shield', { use_cloudflare_reporting_endpoint: true });
    expect(put.status).toBe(200);
    expect(put.body.result.use_cloudflare_reporting_endpoint).toBe(true);
    expect(put.body.result).not.toHaveProperty('use_service_reporting_endpoint');
    const neutral = await call('GET', '/zones/alias1/page_guard');
    expect(neutral.body.result.use_service_reporting_endpoint).toBe(true);
    expect(neutral.body.result).not.toHaveProperty('use_cloudflare_reporting_endpoint');
    // A body field in the other spelling is accepted on either path.
    const mixed = await call('PUT', '/zones/alias1/page_guard', { use_cloudflare_reporting_endpoint: false });
    expect(mixed.status).toBe(200);
    expect(mixed.body.result.use_service_reporting_endpoint).toBe(false);
  });

  it('answers errors with the words of the request', async () => {
    const bad = await call('PUT', '/zones/alias2/page_shield', { use_cloudflare_reporting_endpoint: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe(ERROR_CODES.settingsInvalid);
    expect(bad.body.errors[0].source.pointer).toBe('/use_cloudflare_reporting_endpoint');
    const neutral = await call('PUT', '/zones/alias2/page_guard', { use_service_reporting_endpoint: 'yes' });
    expect(neutral.body.errors[0].source.pointer).toBe('/use_service_reporting_endpoint');
  });

  it('serves the log export jobs at logpush and logexport: one list', async () => {
    const made = await call('POST', '/zones/alias3/logpush/jobs', { destination_conf: 'https://logs.example.com/in', dataset: 'http_requests' });
    expect(made.status).toBe(200);
    const neutral = await call('GET', `/zones/alias3/logexport/jobs/${made.body.result.id}`);
    expect(neutral.body.result).toEqual(made.body.result);
    expect((await call('GET', '/zones/alias3/logpush/jobs')).body.result.map((j: { id: number }) => j.id)).toEqual([made.body.result.id]);
  });

  it('leaves paths without a brand word to one route (a provider word elsewhere is not a path)', async () => {
    expect((await call('GET', '/zones/alias4/page_shield/nope')).status).toBe(404);
    expect((await call('GET', '/zones/alias4/rulesets')).status).toBe(200);
  });
});

describe("page monitoring answers as the provider's", () => {
  it('settings carry all four fields, also before anything was set', async () => {
    const s = await call('GET', '/zones/fresh-settings/page_shield');
    expect(Object.keys(s.body.result).sort()).toEqual(['enabled', 'updated_at', 'use_cloudflare_reporting_endpoint', 'use_connection_url_path']);
    expect(s.body.result).toMatchObject({ enabled: false, use_cloudflare_reporting_endpoint: false, use_connection_url_path: false });
  });

  it('the policy list carries result_info', async () => {
    for (const n of [1, 2]) await call('POST', '/zones/policy-info/page_shield/policies', { action: 'log', expression: 'true', value: "script-src 'self'", description: `p${n}` });
    const list = await call('GET', '/zones/policy-info/page_shield/policies');
    expect(list.body.result).toHaveLength(2);
    expect(list.body.result_info).toEqual({ page: 1, per_page: 2, count: 2, total_count: 2, total_pages: 1 });
  });
});

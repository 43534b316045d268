import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, FixtureError, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

/**
 * A zone id the emulator does not have. By default every zone endpoint treats it alike, as an empty zone created on
 * first use (offline test beds and tests need no fixture). With the fixture's `unlisted_zones: "refuse"` every zone
 * endpoint answers it as the provider answers a zone the credential cannot reach: 403, success false, code 10000,
 * result null; nothing is created.
 */
const ZONE_CALLS: [string, string, unknown?][] = [
  ['GET', 'logpush/jobs'],
  ['GET', 'logexport/jobs'],
  ['POST', 'logpush/jobs', { name: 'j', destination_conf: 's3://b/p?region=us-east-1', dataset: 'http_requests' }],
  ['GET', 'logpush/jobs/1'],
  ['GET', 'logpush/datasets/http_requests/fields'],
  ['GET', 'logpush/edge/jobs'],
  ['GET', 'rulesets'],
  ['POST', 'rulesets', { name: 'c', kind: 'custom', phase: 'http_request_firewall_custom' }],
  ['GET', 'rulesets/phases/http_request_firewall_custom/entrypoint'],
  ['GET', 'rulesets/phases/http_request_firewall_custom/entrypoint/versions'],
  ['GET', 'page_shield'],
  ['GET', 'page_shield/scripts'],
  ['GET', 'page_shield/policies'],
  ['GET', 'firewall/waf/packages'],
  ['GET', 'waf_migration/status'],
];

describe('unlisted zones refused', () => {
  let emu: RunningEmulator;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    emu = await startEmulator({ tokens: ['test-token'], fixture: { unlisted_zones: 'refuse', zones: { known: { plan: 'pro' } } } });
    call = api(emu.url);
  });
  afterAll(() => emu.close());

  it.each(ZONE_CALLS)('%s zones/<unknown>/%s: 403, code 10000', async (method, path, body) => {
    const r = await call(method, `/zones/nowhere/${path}`, body);
    expect([r.status, r.body.success, r.body.result, r.body.errors.map((e: any) => e.code)]).toEqual([403, false, null, [ERROR_CODES.zoneNotAccessible]]);
    expect(ERROR_CODES.zoneNotAccessible).toBe(10000);
  });

  it('answers the listed zones as before, and creates no zone for a refused call', async () => {
    expect((await call('GET', '/zones/known/logpush/jobs')).status).toBe(200);
    expect((await call('POST', '/zones/known/rulesets', { name: 'c', kind: 'custom', phase: 'http_request_firewall_custom' })).status).toBe(200);
    expect((await call('GET', '/zones')).body.result.map((z: any) => z.id)).toEqual(['known']);
    // a malformed zone id is still the routing error it always was
    expect((await call('GET', '/zones/bad%20id/logpush/jobs')).body.errors[0].code).toBe(ERROR_CODES.invalidZone);
  });
});

describe('unlisted zones by default', () => {
  it('are empty zones created on first use, on every zone endpoint alike', async () => {
    const emu = await startEmulator({ tokens: ['test-token'], fixture: { zones: { known: {} } } });
    try {
      const call = api(emu.url);
      for (const [i, [method, path, body]] of ZONE_CALLS.entries()) {
        const r = await call(method, `/zones/fresh-${i}/${path}`, body);
        // the two single-item reads answer "not found" for the item, not for the zone
        expect([path, r.status === 404 ? r.body.errors[0].code : r.status]).toEqual([path, path === 'logpush/jobs/1' ? ERROR_CODES.jobNotFound : path.endsWith('entrypoint') ? ERROR_CODES.entrypointNotFound : 200]);
      }
    } finally {
      await emu.close();
    }
  });

  it('a value other than create or refuse stops the start, naming the key', async () => {
    await expect(startEmulator({ fixture: { unlisted_zones: 'deny' } })).rejects.toThrow(FixtureError);
    await expect(startEmulator({ fixture: { unlisted_zones: 'deny' } })).rejects.toThrow(/unlisted_zones/);
  });
});

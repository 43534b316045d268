/**
 * Departures found by the acceptance audit against the contract (api-description.md, the API facts and the
 * provider's OpenAPI document, test/fixtures/openapi), each checked over real HTTP as a user's SDK sends it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
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

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `jobs-zone-${++zn}`;
const DEST = 's3://logs-bucket/http?region=us-east-1';
const FILTER = JSON.stringify({ where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: 'example.com' }, { key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] } });

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const create = (z: string, body: Record<string, unknown>) => call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: DEST, ...body });

describe('log export jobs', () => {
  it('creates, gets, lists, updates and deletes a job with integer ids', async () => {
    const z = zone();
    const c = await create(z, { name: 'http', dataset: 'http_requests', logpull_options: 'fields=ClientIP,Cookies&timestamps=rfc3339', ownership_challenge: 'abc', filter: FILTER });
    expect(c.status).toBe(200);
    const job = c.body.result;
    expect(Number.isInteger(job.id)).toBe(true);
    expect(job).toMatchObject({ name: 'http', dataset: 'http_requests', destination_conf: DEST, logpull_options: 'fields=ClientIP,Cookies&timestamps=rfc3339', filter: FILTER, enabled: false });
    expect(job.ownership_challenge).toBeUndefined();
    const c2 = await create(z, { name: 'second' });
    expect(c2.body.result.id).toBeGreaterThan(job.id);
    expect(c2.body.result).toMatchObject({ dataset: 'http_requests', filter: null, logpull_options: null });

    expect((await call('GET', `/zones/${z}/logexport/jobs/${job.id}`)).body.result).toEqual(job);
    const list = await call('GET', `/zones/${z}/logexport/jobs`);
    expect(list.body.result.map((j: any) => j.id)).toEqual([job.id, c2.body.result.id]);
    expect(list.body.result_info).toMatchObject({ total_count: 2, page: 1 });
    expect((await call('GET', `/zones/${zone()}/logexport/jobs`)).body.result).toEqual([]);

    const u = await call('PUT', `/zones/${z}/logexport/jobs/${job.id}`, { name: 'renamed', enabled: true, filter: null });
    expect(u.body.result).toMatchObject({ id: job.id, name: 'renamed', enabled: true, filter: null, logpull_options: job.logpull_options });

    const d = await call('DELETE', `/zones/${z}/logexport/jobs/${job.id}`);
    expect([d.status, d.body.result]).toEqual([200, { id: job.id }]);
    const gone = await call('GET', `/zones/${z}/logexport/jobs/${job.id}`);
    expect([gone.status, gone.body.errors[0].code]).toEqual([404, ERROR_CODES.jobNotFound]);
    expect((await call('GET', `/zones/${z}/logexport/jobs/abc`)).status).toBe(404);
    // A job of one zone is not visible from another.
    expect((await call('GET', `/zones/${zone()}/logexport/jobs/${c2.body.result.id}`)).status).toBe(404);
  });

  it('pages the job list', async () => {
    const z = zone();
    for (let i = 0; i < 3; i++) await create(z, { name: `j${i}` });
    const p = await call('GET', `/zones/${z}/logexport/jobs?per_page=2&page=2`);
    expect(p.body.result.map((j: any) => j.name)).toEqual(['j2']);
    expect(p.body.result_info).toEqual({ page: 2, per_page: 2, count: 1, total_count: 3, total_pages: 2 });
  });

  it.each([
    ['missing destination', { destination_conf: undefined }, ERROR_CODES.jobInvalid],
    ['destination not a URL', { destination_conf: 'not a url' }, ERROR_CODES.jobInvalid],
    ['s3 without region', { destination_conf: 's3://bucket/path' }, ERROR_CODES.jobInvalid],
    ['name not a string', { name: 5 }, ERROR_CODES.jobInvalid],
    ['unknown dataset', { dataset: 'nope' }, ERROR_CODES.datasetInvalid],
    ['filter not JSON', { filter: '{where' }, ERROR_CODES.filterNotJson],
    ['filter with an unknown field', { filter: '{"where":{"key":"Nope","operator":"eq","value":"x"}}' }, ERROR_CODES.filterInvalid],
    ['filter with a wrong operator', { filter: '{"where":{"key":"ClientRequestHost","operator":"gt","value":5}}' }, ERROR_CODES.filterInvalid],
    ['filter without where', { filter: '{"and":[]}' }, ERROR_CODES.filterInvalid],
    ['filter over 30 operators', { filter: JSON.stringify({ where: { or: Array.from({ length: 31 }, (_, i) => ({ key: 'EdgeResponseStatus', operator: 'eq', value: 200 + i })) } }) }, ERROR_CODES.filterTooLarge],
    ['filter over 1000 bytes', { filter: JSON.stringify({ where: { key: 'ClientRequestPath', operator: 'eq', value: '/' + 'a'.repeat(1000) } }) }, ERROR_CODES.filterTooLarge],
    ['unknown logpull option', { logpull_options: 'fields=ClientIP&colour=red' }, ERROR_CODES.logpullOptions],
    ['bad timestamps', { logpull_options: 'timestamps=local' }, ERROR_CODES.logpullOptions],
    ['unknown log field', { logpull_options: 'fields=ClientIP,NotAField' }, ERROR_CODES.logpullOptions],
    ['bad CVE flag', { logpull_options: 'CVE-2021-44228=maybe' }, ERROR_CODES.logpullOptions],
  ])('rejects %s and stores nothing', async (_name, body, code) => {
    const z = zone();
    const r = await create(z, body);
    expect([r.status, r.body.success, r.body.errors[0].code]).toEqual([400, false, code]);
    expect((await call('GET', `/zones/${z}/logexport/jobs`)).body.result).toEqual([]);
  });

  it('names the diagnostic code and path when it refuses a filter', async () => {
    const r = await create(zone(), { filter: '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"a"},{"key":"WAFAction","operator":"eq","value":"block"}]}}' });
    expect(r.body.errors[0].code).toBe(ERROR_CODES.filterInvalid);
    expect(r.body.errors[0].message).toContain('removed-field');
    expect(r.body.errors[0].message).toContain('where.and[1]');
  });

  it('accepts the CVE option and checks a filter against the job dataset', async () => {
    const z = zone();
    const ok = await create(z, { dataset: 'firewall_events', logpull_options: 'fields=Action,ClientIP&timestamps=unixnano&CVE-2021-44228=true', filter: '{"where":{"key":"ClientRefererHost","operator":"eq","value":"example.com"}}' });
    expect(ok.status).toBe(200);
    // The same filter is wrong for http_requests, and an update is checked against the job's own dataset.
    expect((await create(z, { filter: '{"where":{"key":"ClientRefererHost","operator":"eq","value":"example.com"}}' })).body.errors[0].code).toBe(ERROR_CODES.filterInvalid);
    const u = await call('PUT', `/zones/${z}/logexport/jobs/${ok.body.result.id}`, { filter: '{"where":{"key":"CacheCacheStatus","operator":"eq","value":"hit"}}' });
    expect(u.body.errors[0].code).toBe(ERROR_CODES.filterInvalid);
    // A field the dataset does not let a filter use is refused too.
    expect((await create(z, { dataset: 'firewall_events', filter: '{"where":{"key":"Action","operator":"eq","value":"block"}}' })).body.errors[0].code).toBe(ERROR_CODES.filterInvalid);
  });

  it('refuses an invalid update and keeps the job as it was', async () => {
    const z = zone();
    const job = (await create(z, { name: 'keep', filter: FILTER, logpull_options: 'fields=ClientIP' })).body.result;
    for (const body of [{ dataset: 'dns_logs' }, { filter: '{"where":{}}' }, { logpull_options: 'x=1' }, { destination_conf: 'nope' }, { name: 'changed', filter: 'not json' }]) {
      const r = await call('PUT', `/zones/${z}/logexport/jobs/${job.id}`, body);
      expect(r.status).toBe(400);
    }
    expect((await call('GET', `/zones/${z}/logexport/jobs/${job.id}`)).body.result).toEqual(job);
    expect((await call('PUT', `/zones/${z}/logexport/jobs/999999`, { name: 'x' })).status).toBe(404);
  });
});

/**
 * Log export jobs at account level (the provider's `<scope>/logpush/jobs`, `<scope>` = `accounts/<id>` or
 * `zones/<id>`; the provider's SDK calls `accounts/{account_id}/logpush/jobs` when given an account_id).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Cloudflare from 'cloudflare';
import { startEmulator, ERROR_CODES, readDataFile, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
const outbox = mkdtempSync(path.join(tmpdir(), 'account-jobs-outbox-'));
const FILTER = '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'], outbox });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe('log export jobs of an account', () => {
  it('serves create, list, get, update and delete through the provider\'s SDK with an account_id', async () => {
    const cf = new Cloudflare({ apiToken: 'test-token', baseURL: emu.url, maxRetries: 0 });
    const a = { account_id: 'acct-sdk' };
    const job = await cf.logpush.jobs.create({ ...a, destination_conf: 'https://logs.example.com/acct', dataset: 'http_requests', name: 'acct', filter: FILTER });
    expect(job).toMatchObject({ name: 'acct', dataset: 'http_requests', filter: FILTER, enabled: false });
    expect(typeof job!.id).toBe('number');
    expect((await cf.logpush.jobs.list(a)).result.map((j) => j?.id)).toEqual([job!.id]);
    expect(await cf.logpush.jobs.get(job!.id!, a)).toEqual(job);
    expect(await cf.logpush.jobs.update(job!.id!, { ...a, enabled: true })).toMatchObject({ id: job!.id, enabled: true });
    await cf.logpush.jobs.delete(job!.id!, a);
    expect((await cf.logpush.jobs.list(a)).result).toEqual([]);
  });

  it('keeps an account\'s jobs apart from its zones\' and other accounts\', in both spellings', async () => {
    const made = await call('POST', '/accounts/acct-a/logexport/jobs', { destination_conf: 'https://logs.example.com/a' });
    expect(made.status).toBe(200);
    expect((await call('GET', '/accounts/acct-a/logpush/jobs')).body.result.map((j: any) => j.id)).toEqual([made.body.result.id]);
    expect((await call('GET', '/accounts/acct-b/logpush/jobs')).body.result).toEqual([]);
    expect((await call('GET', '/zones/acct-a/logpush/jobs')).body.result).toEqual([]);
    const other = await call('GET', `/accounts/acct-b/logpush/jobs/${made.body.result.id}`);
    expect([other.status, other.body.errors[0].code]).toEqual([404, ERROR_CODES.jobNotFound]);
    // A GET of an account never seen creates nothing.
    expect((await call('GET', '/accounts/never-seen/logpush/jobs')).body.result).toEqual([]);
  });

  it('checks an account job as a zone\'s: filter, fields, name, dataset, malformed account id', async () => {
    const bad = await call('POST', '/accounts/acct-c/logpush/jobs', { destination_conf: 'https://logs.example.com/c', filter: '{"where":{"key":"Nope","operator":"eq","value":1}}' });
    expect([bad.status, bad.body.errors[0].code, bad.body.errors[0].source]).toEqual([400, ERROR_CODES.filterInvalid, { pointer: '/filter' }]);
    const dataset = await call('POST', '/accounts/acct-c/logpush/jobs', { destination_conf: 'https://logs.example.com/c', dataset: 'nope' });
    expect([dataset.status, dataset.body.errors[0].code]).toEqual([400, ERROR_CODES.datasetInvalid]);
    const id = await call('GET', '/accounts/bad%20id/logpush/jobs');
    expect([id.status, id.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidAccount]);
    expect((await call('GET', '/accounts/acct-c/logpush/jobs')).body.result).toEqual([]);
  });

  it('serves the account\'s ownership challenge, destination checks, dataset fields and dataset jobs', async () => {
    const s3 = 's3://acct-bucket/logs?region=us-east-1';
    const issued = await call('POST', '/accounts/acct-d/logpush/ownership', { destination_conf: s3 });
    expect(issued.status).toBe(200);
    const token = readFileSync(issued.body.result.filename, 'utf8').trim();
    const wrong = await call('POST', '/accounts/acct-d/logpush/jobs', { destination_conf: s3, ownership_challenge: 'nope' });
    expect([wrong.status, wrong.body.errors[0].code]).toEqual([400, ERROR_CODES.ownershipChallenge]);
    expect((await call('POST', '/accounts/acct-d/logpush/ownership/validate', { destination_conf: s3, ownership_challenge: token })).body.result).toEqual({ valid: true });
    expect((await call('POST', '/accounts/acct-d/logpush/jobs', { destination_conf: s3, ownership_challenge: token })).status).toBe(200);
    expect((await call('POST', '/accounts/acct-d/logpush/validate/destination/exists', { destination_conf: s3 })).body.result).toEqual({ exists: true });
    expect((await call('POST', '/accounts/acct-d/logpush/validate/destination', { destination_conf: s3 })).body.result).toEqual({ valid: true, message: '' });
    // a destination no job could use is an answer, as validate/origin gives one; no destination at all is a 400
    for (const bad of ['not a url', 's3://acct-bucket/logs']) {
      const r = await call('POST', '/accounts/acct-d/logpush/validate/destination', { destination_conf: bad });
      expect([r.status, r.body.success, r.body.result.valid, typeof r.body.result.message, r.body.result.message.length > 0]).toEqual([200, true, false, 'string', true]);
    }
    for (const body of [{}, { destination_conf: '' }, { destination_conf: 5 }]) {
      const r = await call('POST', '/accounts/acct-d/logpush/validate/destination', body);
      expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.jobInvalid]);
    }
    expect((await call('POST', '/accounts/acct-d/logpush/validate/origin', { logpull_options: 'fields=ClientIP' })).body.result).toEqual({ valid: true, message: '' });
    expect((await call('GET', '/accounts/acct-d/logpush/datasets/http_requests/jobs')).body.result).toHaveLength(1);
    expect(Object.keys((await call('GET', '/accounts/acct-d/logpush/datasets/http_requests/fields')).body.result)).toContain('ClientIP');
    // Instant logs are a zone's only.
    expect((await call('GET', '/accounts/acct-d/logpush/edge')).status).toBe(404);
  });

  it('keeps an account\'s jobs across a restart with --data', async () => {
    const data = path.join(mkdtempSync(path.join(tmpdir(), 'account-jobs-data-')), 'state.json');
    const a = await startEmulator({ tokens: ['test-token'], dataFile: data });
    const made = await api(a.url)('POST', '/accounts/kept/logpush/jobs', { destination_conf: 'https://logs.example.com/kept', name: 'kept' });
    await a.close();
    expect(readDataFile(data)?.accounts.kept).toMatchObject({ jobs: [{ id: made.body.result.id, name: 'kept' }] });
    const b = await startEmulator({ tokens: ['test-token'], dataFile: data });
    try {
      expect((await api(b.url)('GET', `/accounts/kept/logpush/jobs/${made.body.result.id}`)).body.result).toEqual(made.body.result);
    } finally {
      await b.close();
    }
  });
});

/** Log export jobs in full: the calls beyond create/list/get/update/delete, on the wire. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Cloudflare from 'cloudflare';
import { getDataset } from '@logfilter/core';
import { startEmulator, ERROR_CODES, UPLOAD_LIMITS, outboxFile, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
const outbox = mkdtempSync(path.join(tmpdir(), 'logpush-outbox-'));
const S3 = 's3://owned-bucket/http?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'], outbox });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe('log export jobs in full', () => {
  it('lists every job: the SDK, which reads one page, sees all 22', async () => {
    for (let i = 0; i < 22; i++) await call('POST', '/zones/many/logpush/jobs', { destination_conf: `https://logs.example.com/${i}` });
    const cf = new Cloudflare({ apiToken: 'test-token', baseURL: emu.url, maxRetries: 0 });
    const page = await cf.logpush.jobs.list({ zone_id: 'many' });
    expect(page.result).toHaveLength(22);
  });

  it('writes an ownership challenge to the outbox, one file per destination, and checks it on create', async () => {
    const issued = await call('POST', '/zones/own/logpush/ownership', { destination_conf: S3 });
    expect(issued.status).toBe(200);
    expect(issued.body.result.filename).toBe(outboxFile(outbox, S3));
    expect(readdirSync(outbox)).toContain(path.basename(issued.body.result.filename));
    const token = readFileSync(issued.body.result.filename, 'utf8').trim();
    expect((await call('POST', '/zones/own/logpush/ownership/validate', { destination_conf: S3, ownership_challenge: 'nope' })).body.result).toEqual({ valid: false });
    expect((await call('POST', '/zones/own/logpush/ownership/validate', { destination_conf: S3, ownership_challenge: token })).body.result).toEqual({ valid: true });
    const wrong = await call('POST', '/zones/own/logpush/jobs', { destination_conf: S3, ownership_challenge: 'nope' });
    expect([wrong.status, wrong.body.errors[0].code]).toEqual([400, ERROR_CODES.ownershipChallenge]);
    expect(wrong.body.errors[0].message).toContain('incorrect ownership challenge');
    expect((await call('POST', '/zones/own/logpush/validate/destination/exists', { destination_conf: S3 })).body.result).toEqual({ exists: false });
    const made = await call('POST', '/zones/own/logpush/jobs', { destination_conf: S3, ownership_challenge: token });
    expect(made.status).toBe(200);
    expect((await call('POST', '/zones/own/logpush/validate/destination/exists', { destination_conf: S3 })).body.result).toEqual({ exists: true });
    // A destination that needs no challenge answers so and writes nothing.
    const https = await call('POST', '/zones/own/logpush/ownership', { destination_conf: 'https://logs.example.com/in' });
    expect(https.body.result).toMatchObject({ valid: true, filename: '' });
  });

  it("answers a dataset's fields from the core's table, and its jobs", async () => {
    const fields = await call('GET', '/zones/ds/logpush/datasets/firewall_events/fields');
    expect(Object.keys(fields.body.result)).toEqual(getDataset('firewall_events')!.fields.map((f) => f.name));
    await call('POST', '/zones/ds/logpush/jobs', { destination_conf: 'https://a.example/x', dataset: 'firewall_events' });
    await call('POST', '/zones/ds/logpush/jobs', { destination_conf: 'https://a.example/y', dataset: 'http_requests' });
    const jobs = await call('GET', '/zones/ds/logpush/datasets/firewall_events/jobs');
    expect(jobs.body.result.map((j: { dataset: string }) => j.dataset)).toEqual(['firewall_events']);
    const unknown = await call('GET', '/zones/ds/logpush/datasets/nope/fields');
    expect([unknown.status, unknown.body.errors[0].code]).toEqual([400, ERROR_CODES.datasetInvalid]);
  });

  it('validates logpull options as an answer, not an error', async () => {
    expect((await call('POST', '/zones/o/logpush/validate/origin', { logpull_options: 'fields=ClientIP&timestamps=unix' })).body.result).toEqual({ valid: true, message: '' });
    const bad = await call('POST', '/zones/o/logpush/validate/origin', { logpull_options: 'fields=Nope' });
    expect(bad.body.result.valid).toBe(false);
  });

  it('checks every job field with its range; kind cannot change', async () => {
    for (const [name, range] of Object.entries(UPLOAD_LIMITS)) {
      for (const bad of [range.min - 1, range.max + 1, 1.5]) {
        const r = await call('POST', '/zones/f/logpush/jobs', { destination_conf: 'https://a.example/x', [name]: bad });
        expect([r.status, r.body.errors[0].code, r.body.errors[0].source.pointer]).toEqual([400, ERROR_CODES.jobInvalid, `/${name}`]);
      }
      const ok = await call('POST', '/zones/f/logpush/jobs', { destination_conf: 'https://a.example/x', [name]: range.min });
      expect(ok.body.result[name]).toBe(range.min);
    }
    const output = { field_names: ['ClientIP'], output_type: 'csv', timestamp_format: 'rfc3339ms', sample_rate: 0.1, 'CVE-2021-44228': true, record_prefix: '{', field_delimiter: ',' };
    const job = await call('POST', '/zones/f/logpush/jobs', { destination_conf: 'https://a.example/x', output_options: output });
    expect(job.body.result.output_options).toEqual(output);
    for (const bad of [{ field_names: ['Nope'] }, { output_type: 'xml' }, { sample_rate: 0 }, { timestamp_format: 'iso' }, { mystery: 1 }]) {
      const r = await call('POST', '/zones/f/logpush/jobs', { destination_conf: 'https://a.example/x', output_options: bad });
      expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.jobInvalid]);
    }
    const kind = await call('PUT', `/zones/f/logpush/jobs/${job.body.result.id}`, { kind: 'edge' });
    expect([kind.status, kind.body.errors[0].source.pointer]).toEqual([400, '/kind']);
    expect(job.body.result).toMatchObject({ last_complete: null, last_error: null, error_message: null });
  });

  it('instant logs: the same filter language, a wrongly typed value refused as the provider does', async () => {
    const ok = await call('POST', '/zones/e/logpush/edge', { fields: 'ClientIP,EdgeResponseStatus', filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":[200,201]}}', sample: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body.result.session_id).toMatch(/^[0-9a-f]{32}$/);
    const bad = await call('POST', '/zones/e/logpush/edge', { fields: 'ClientIP', filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}}', sample: 1 });
    expect([bad.status, bad.body.errors[0].code, bad.body.errors[0].message]).toEqual([400, 1004, 'bad predicate: failed to decode value "\\"200,201\\"", supported kinds: []uint64']);
    const unknown = await call('POST', '/zones/e/logpush/edge', { fields: 'ClientIP', filter: '{"where":{"key":"Nope","operator":"eq","value":1}}' });
    expect([unknown.status, unknown.body.errors[0].code]).toEqual([400, ERROR_CODES.filterInvalid]);
    // The SDK's path (edge/jobs) is the same list.
    const cf = new Cloudflare({ apiToken: 'test-token', baseURL: emu.url, maxRetries: 0 });
    expect((await cf.logpush.edge.get({ zone_id: 'e' })).result.map((j) => j?.session_id)).toEqual([ok.body.result.session_id]);
  });

  it('instant logs: a body that is not an object (null, a list, a scalar) is refused as a job\'s is, and creates nothing', async () => {
    for (const path of ['/zones/e-body/logpush/edge', '/zones/e-body/logexport/edge/jobs']) {
      for (const text of ['null', '[]', '"x"', '1', 'true']) {
        const r = await call('POST', path, text);
        expect([r.status, r.body.success, r.body.errors[0].code], `${path} ${text}`).toEqual([400, false, ERROR_CODES.jobInvalid]);
      }
    }
    expect((await call('GET', '/zones/e-body/logpush/edge')).body.result).toEqual([]);
    // An empty request body is still a job with the defaults.
    expect((await call('POST', '/zones/e-body/logpush/edge')).status).toBe(200);
  });
});

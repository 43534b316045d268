/**
 * Log export job fields against the provider's OpenAPI document (test/fixtures/openapi, `logpush_*` schemas),
 * schema by schema, over real HTTP: what the schema makes nullable is taken as "not given", what its pattern
 * refuses is refused with the field's pointer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `job-schema-${++zn}`;
const DEST = 'https://logs.example.com/in';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const refused = (r: { status: number; body: any }) => [r.status, r.body.success, r.body.errors?.[0]?.code, r.body.errors?.[0]?.source?.pointer];

describe("output_options: the Log4Shell option in both spellings", () => {
  // The provider's published schema (logpush_output_options) and the SDKs generated from it spell the option
  // CVE-2021-4428; the provider's docs and logpull_options spell it CVE-2021-44228. An SDK's job must not be refused.
  it.each(['CVE-2021-4428', 'CVE-2021-44228'])('takes %s as a boolean, echoes it, refuses another type with a pointer', async (option) => {
    const z = zone();
    const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, output_options: { output_type: 'ndjson', [option]: true } });
    expect([c.status, c.body.result?.output_options?.[option]]).toEqual([200, true]);
    const n = await call('PUT', `/zones/${z}/logpush/jobs/${c.body.result.id}`, { output_options: { [option]: null } });
    expect(n.status).toBe(200);
    const bad = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, output_options: { [option]: 'yes' } });
    expect(refused(bad)).toEqual([400, false, ERROR_CODES.jobInvalid, `/output_options/${option}`]);
  });
});

describe('output_options: the options the schema makes nullable', () => {
  // logpush_output_options: sample_rate, CVE-2021-44228 / CVE-2021-4428 (below), the batch and
  // record texts and field_delimiter are "nullable": true; an SDK that serialises unset options as null sends them so.
  it.each(['sample_rate', 'CVE-2021-44228', 'batch_prefix', 'record_template', 'field_delimiter'])('takes %s: null on create and on update', async (option) => {
    const z = zone();
    const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, output_options: { output_type: 'ndjson', [option]: null } });
    expect([c.status, c.body.result?.output_options?.output_type]).toEqual([200, 'ndjson']);
    const u = await call('PUT', `/zones/${z}/logpush/jobs/${c.body.result.id}`, { output_options: { timestamp_format: 'rfc3339', [option]: null } });
    expect([u.status, u.body.result?.output_options?.timestamp_format]).toEqual([200, 'rfc3339']);
  });
  it('still refuses null where the schema does not allow it, and wrong types', async () => {
    const z = zone();
    for (const [options, pointer] of [
      [{ output_type: null }, '/output_options/output_type'],
      [{ timestamp_format: null }, '/output_options/timestamp_format'],
      [{ field_names: null }, '/output_options/field_names'],
      [{ sample_rate: '0.5' }, '/output_options/sample_rate'],
      [{ 'CVE-2021-44228': 'true' }, '/output_options/CVE-2021-44228'],
    ] as const) {
      expect(refused(await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, output_options: options }))).toEqual([400, false, ERROR_CODES.jobInvalid, pointer]);
    }
  });
  it('points at the field name that is not of the dataset', async () => {
    const r = await call('POST', `/zones/${zone()}/logpush/jobs`, { destination_conf: DEST, output_options: { field_names: ['ClientIP', 'Nope'] } });
    expect(refused(r)).toEqual([400, false, ERROR_CODES.jobInvalid, '/output_options/field_names/1']);
  });
});

describe('kind: nullable in the schema, so null is "not given" on update as on create', () => {
  it('a PUT with kind null keeps the kind of a default job and of an edge job; another kind is still refused', async () => {
    const z = zone();
    for (const kind of [undefined, 'edge']) {
      const c = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, kind: kind ?? null });
      expect([c.status, c.body.result.kind]).toEqual([200, kind]);
      const u = await call('PUT', `/zones/${z}/logpush/jobs/${c.body.result.id}`, { kind: null, enabled: true });
      expect([u.status, u.body.result?.kind, u.body.result?.enabled]).toEqual([200, kind, true]);
      const other = await call('PUT', `/zones/${z}/logpush/jobs/${c.body.result.id}`, { kind: kind === 'edge' ? '' : 'edge' });
      expect(refused(other)).toEqual([400, false, ERROR_CODES.jobInvalid, '/kind']);
    }
  });
});

describe('ownership_challenge: the schema\'s pattern', () => {
  // logpush_ownership_challenge: ^[a-zA-Z0-9/\+\.\-_]*$, at most 4096 characters.
  it('refuses a token with other characters, or longer than 4096, on every write', async () => {
    const z = zone();
    for (const token of ['a b', 'tok;en', 'x'.repeat(4097)]) {
      expect(refused(await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, ownership_challenge: token }))).toEqual([400, false, ERROR_CODES.jobInvalid, '/ownership_challenge']);
      expect(refused(await call('POST', `/zones/${z}/logpush/ownership/validate`, { destination_conf: DEST, ownership_challenge: token }))).toEqual([400, false, ERROR_CODES.jobInvalid, '/ownership_challenge']);
    }
    expect((await call('GET', `/zones/${z}/logpush/jobs`)).body.result).toEqual([]);
    const ok = await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: DEST, ownership_challenge: 'aB0/+.-_' });
    expect(ok.status).toBe(200);
    const u = await call('PUT', `/zones/${z}/logpush/jobs/${ok.body.result.id}`, { destination_conf: 'https://logs.example.com/other', ownership_challenge: 'a b' });
    expect(refused(u)).toEqual([400, false, ERROR_CODES.jobInvalid, '/ownership_challenge']);
  });
});

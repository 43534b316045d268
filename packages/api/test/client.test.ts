import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { inspect } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { ApiError, ApiResponseError, LogfilterClient, parseRetryAfter, type RetryInfo } from '@logfilter/api';
import { clientFor, failure, own } from './support.js';

const TOKEN = 'secret-token-123';
let emu: RunningEmulator;
let client: LogfilterClient;
let zn = 0;
const zone = () => `client-zone-${++zn}`;
const DEST = 's3://bucket/logs?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], email: 'ops@example.com', key: 'key-456' });
  client = clientFor(emu.url, TOKEN);
});
afterAll(() => emu.close());

describe('rulesets through the client', () => {
  it('covers create, get, list, update, versions, rules, entry point and delete', async () => {
    const z = zone();
    const rs = await client.createRuleset(z, { name: 'n', kind: 'zone', phase: 'http_log_custom_fields', description: 'd' });
    expect(rs).toMatchObject({ kind: 'zone', phase: 'http_log_custom_fields', version: '1', rules: [] });
    const updated = await client.updateRuleset(z, rs.id, { rules: [{ action: 'log_custom_field', expression: 'true', action_parameters: { request_fields: [{ name: 'accept' }] } }] });
    expect(updated.version).toBe('2');
    expect((await client.getRuleset(z, rs.id)).rules).toHaveLength(1);
    expect(own((await client.listRulesets(z)).items).map((r) => r.id)).toEqual([rs.id]);
    expect(own(await client.listAllRulesets(z)).map((r) => r.id)).toEqual([rs.id]);
    expect((await client.getEntrypoint(z, 'http_log_custom_fields')).id).toBe(rs.id);

    const withRule = await client.addRule(z, rs.id, { action: 'log_custom_field', expression: 'true', action_parameters: { cookie_fields: [{ name: 'A' }] }, position: { index: 1 } });
    expect(withRule.rules[0].action_parameters).toEqual({ cookie_fields: [{ name: 'A' }] });
    const patched = await client.updateRule(z, rs.id, withRule.rules[0].id, { description: 'moved', position: { index: 2 } });
    expect(patched.rules[1]).toMatchObject({ id: withRule.rules[0].id, description: 'moved' });
    const deleted = await client.deleteRule(z, rs.id, withRule.rules[0].id);
    expect(deleted.rules).toHaveLength(1);

    const versions = await client.listRulesetVersions(z, rs.id);
    expect(versions.map((v) => v.version)).toEqual(['5', '4', '3', '2', '1']);
    expect((await client.getRulesetVersion(z, rs.id, '2')).rules).toHaveLength(1);
    await client.deleteRulesetVersion(z, rs.id, '1');
    expect((await failure(client.getRulesetVersion(z, rs.id, '1'))).code).toBe(ERROR_CODES.versionNotFound);

    const entry = await client.updateEntrypoint(z, 'http_request_firewall_managed', { rules: [] });
    expect(entry).toMatchObject({ phase: 'http_request_firewall_managed', kind: 'zone' });
    await client.deleteRuleset(z, rs.id);
    const gone = await failure(client.getRuleset(z, rs.id));
    expect(gone).toBeInstanceOf(ApiResponseError);
    expect([gone.kind, gone.status, gone.code]).toEqual(['api', 404, ERROR_CODES.rulesetNotFound]);
  });

  it('follows cursor pages, as an async iterator and when asked for all', async () => {
    const z = zone();
    for (let i = 0; i < 3; i++) await client.createRuleset(z, { name: `r${i}`, kind: 'custom', phase: 'http_request_firewall_custom' });
    const first = await client.listRulesets(z, { perPage: 2 });
    expect(first.items.map((r) => r.name)).toEqual(['r0', 'r1']);
    // The zone's own rulesets, then the two managed ones it can execute.
    const second = await client.listRulesets(z, { perPage: 2, cursor: first.cursor });
    expect(second.items.map((r) => r.name)).toEqual(['r2', 'Cloudflare Managed Ruleset']);
    const third = await client.listRulesets(z, { perPage: 2, cursor: second.cursor });
    expect([third.items.map((r) => r.name), third.cursor]).toEqual([['Cloudflare OWASP Core Ruleset'], undefined]);
    const seen: string[] = [];
    const before = emu.requestCount;
    for await (const rs of client.iterateRulesets(z, { perPage: 1 })) seen.push(rs.name ?? '');
    expect(seen).toEqual(['r0', 'r1', 'r2', 'Cloudflare Managed Ruleset', 'Cloudflare OWASP Core Ruleset']);
    expect(emu.requestCount - before).toBe(5);
    expect(own(await client.listAllRulesets(z)).map((r) => r.name)).toEqual(['r0', 'r1', 'r2']);
  });

  it('reads the next cursor from result_info.cursor too, and stops on a cursor that comes back', async () => {
    const z = zone();
    const page = (names: string[], info: object) => ({ rawBody: JSON.stringify({ success: true, errors: [], messages: [], result: names.map((name) => ({ id: name, name })), result_info: info }) });
    emu.injectFaults(page(['a'], { cursor: 'c1', count: 1, per_page: 1 }), page(['b'], { count: 1, per_page: 1 }));
    expect((await client.listAllRulesets(z)).map((r) => r.id)).toEqual(['a', 'b']);
    emu.injectFaults(page(['a'], { cursors: { after: 'c1' } }), page(['b'], { cursors: { after: 'c1' } }));
    const err = await failure(client.listAllRulesets(z));
    expect(err.kind).toBe('invalid-response');
  });
});

describe('jobs through the client', () => {
  it('creates, lists, gets, updates and deletes', async () => {
    const z = zone();
    const filter = '{"where":{"key":"ClientRequestHost","operator":"eq","value":"example.com"}}';
    const job = await client.createJob(z, { destination_conf: DEST, name: 'a', dataset: 'http_requests', logpull_options: 'fields=ClientIP&timestamps=rfc3339', filter, ownership_challenge: 'x' });
    expect(job).toMatchObject({ name: 'a', filter, dataset: 'http_requests' });
    expect(Number.isInteger(job.id)).toBe(true);
    expect((await client.listJobs(z)).items.map((j) => j.id)).toEqual([job.id]);
    expect((await client.listAllJobs(z)).map((j) => j.id)).toEqual([job.id]);
    expect(await client.getJob(z, job.id)).toEqual(job);
    expect((await client.updateJob(z, job.id, { name: 'b', filter: null })).name).toBe('b');
    await client.deleteJob(z, job.id);
    expect((await failure(client.getJob(z, job.id))).code).toBe(ERROR_CODES.jobNotFound);
  });
  it('does the same for the jobs of an account, kept apart from the zone of the same id', async () => {
    const a = { account: zone() };
    const job = await client.createJob(a, { destination_conf: DEST, name: 'acct', ownership_challenge: 'x' });
    expect((await client.listJobs(a)).items.map((j) => j.id)).toEqual([job.id]);
    expect((await client.listAllJobs(a)).map((j) => j.id)).toEqual([job.id]);
    expect(await client.listAllJobs(a.account)).toEqual([]);
    expect(await client.getJob(a, job.id)).toEqual(job);
    expect((await client.updateJob(a, job.id, { enabled: true })).enabled).toBe(true);
    await client.deleteJob(a, job.id);
    expect((await failure(client.getJob(a, job.id))).code).toBe(ERROR_CODES.jobNotFound);
    expect((await failure(client.getJob({ zone: a.account }, job.id))).code).toBe(ERROR_CODES.jobNotFound);
  });
  it('types and carries the job fields beyond the description: output_options, kind, the upload limits', async () => {
    const z = zone();
    // A type error (npm run lint) before the fields were typed: a TypeScript user could not send them.
    const job = await client.createJob(z, {
      destination_conf: 'https://logs.example.com/typed',
      kind: 'edge',
      max_upload_bytes: 5_000_000,
      max_upload_records: 1_000,
      max_upload_interval_seconds: 30,
      output_options: { field_names: ['RayID', 'ClientIP'], output_type: 'ndjson', timestamp_format: 'rfc3339', sample_rate: 0.5, 'CVE-2021-44228': true },
    });
    expect(job).toMatchObject({ kind: 'edge', max_upload_bytes: 5_000_000, max_upload_records: 1_000, max_upload_interval_seconds: 30 });
    expect(job.output_options?.field_names).toEqual(['RayID', 'ClientIP']);
    const updated = await client.updateJob(z, job.id, { kind: null, max_upload_records: 0, output_options: { ...job.output_options, output_type: 'csv' } });
    expect([updated.kind, updated.max_upload_records, updated.output_options?.output_type, updated.output_options?.sample_rate]).toEqual(['edge', undefined, 'csv', 0.5]);
    const e = await failure(client.updateJob(z, job.id, { max_upload_bytes: 1 }));
    expect([e.status, e.code]).toEqual([400, ERROR_CODES.jobInvalid]);
  });
  it('carries the API code for a refused filter', async () => {
    const e = await failure(client.createJob(zone(), { destination_conf: DEST, filter: '{"where":{"key":"Nope","operator":"eq","value":1}}' }));
    expect([e.kind, e.status, e.code]).toEqual(['api', 400, ERROR_CODES.filterInvalid]);
    expect(e.errors).toHaveLength(1);
  });
});

describe('credentials', () => {
  it('accepts e-mail and key from the environment', async () => {
    const c = new LogfilterClient({ env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_AUTH_EMAIL: 'ops@example.com', LOGFILTER_AUTH_KEY: 'key-456' } });
    expect(c.authScheme).toBe('key');
    expect((await c.listJobs(zone())).items).toEqual([]);
  });
  it('prefers options over the environment', async () => {
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: { LOGFILTER_BASE_URL: 'http://127.0.0.1:1/client/v4', LOGFILTER_API_TOKEN: 'wrong' } });
    expect((await c.listJobs(zone())).items).toEqual([]);
  });
  it("names an error's causes (the provider's error_chain) in its message, and keeps them on the error", async () => {
    // The provider's answer to an Authorization header it cannot read (this client never sends one; a proxy can).
    const chain = [{ code: 6111, message: 'Invalid format for Authorization header' }];
    emu.injectFaults({ status: 400, rawBody: JSON.stringify({ success: false, result: null, messages: [], errors: [{ code: 6003, message: 'Invalid request headers', error_chain: chain }] }) });
    const e = await failure(client.listJobs(zone()));
    expect([e.kind, e.status, e.code, e.errors[0].error_chain]).toEqual(['api', 400, 6003, chain]);
    expect(e.message).toContain(chain[0].message);
  });
  it('fails with 403 on a wrong token or key, not retried', async () => {
    let retries = 0;
    const wrong = new LogfilterClient({ baseUrl: emu.url, token: 'wrong', env: {}, onRetry: () => retries++ });
    const e = await failure(wrong.listJobs(zone()));
    expect([e.kind, e.status, e.code]).toEqual(['api', 403, ERROR_CODES.invalidCredentials]);
    const key = new LogfilterClient({ baseUrl: emu.url, email: 'ops@example.com', key: 'nope', env: {} });
    expect((await failure(key.listJobs(zone()))).status).toBe(403);
    expect(retries).toBe(0);
  });
  it('refuses to call without credentials, before any request', async () => {
    const before = emu.requestCount;
    expect((await failure(new LogfilterClient({ baseUrl: emu.url, env: {} }).listJobs('z'))).kind).toBe('config');
    // No base URL: the provider's API, as its own tools default to it.
    expect(new LogfilterClient({ token: TOKEN, env: {} }).baseUrl).toBe('https://api.cloudflare.com/client/v4');
    expect(() => new LogfilterClient({ baseUrl: emu.url, email: 'a@b.c', env: {} })).toThrow(ApiError);
    expect(() => new LogfilterClient({ baseUrl: 'not a url', env: {} })).toThrow(ApiError);
    expect(emu.requestCount).toBe(before);
  });
  it('never shows a secret in inspect, JSON, dry-run descriptions or errors', async () => {
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
    expect(inspect(c)).not.toContain(TOKEN);
    expect(JSON.stringify(c)).not.toContain(TOKEN);
    const d = c.describeRequest('POST', '/zones/z/logexport/jobs', { a: 1 });
    expect(JSON.stringify(d)).not.toContain(TOKEN);
    expect(d.headers.Authorization).toBe('Bearer <redacted>');
    const k = new LogfilterClient({ baseUrl: emu.url, email: 'ops@example.com', key: 'key-456', env: {} });
    expect(JSON.stringify(k.describeRequest('GET', '/x'))).not.toContain('key-456');
    const e = await failure(new LogfilterClient({ baseUrl: emu.url, token: 'leaky-token', env: {} }).listJobs('z'));
    expect(`${e.message} ${inspect(e)}`).not.toContain('leaky-token');
  });
});

describe('retries, timeouts and bad answers', () => {
  it('retries after 429 and succeeds, waiting what Retry-After says', async () => {
    const seen: RetryInfo[] = [];
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, retries: 3, onRetry: (r) => seen.push(r) });
    emu.failNext(1, 429, 1);
    emu.failNext(1, 429, 0);
    expect((await c.listJobs(zone())).items).toEqual([]);
    expect(seen.map((r) => [r.status, r.delayMs])).toEqual([
      [429, 1000],
      [429, 0],
    ]);
  });
  it('gives up after the retries with the 429 error', async () => {
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, retries: 1, retryDelayMs: 1 });
    emu.failNext(2, 429);
    const e = await failure(c.listJobs(zone()));
    expect([e.status, e.code]).toEqual([429, ERROR_CODES.rateLimited]);
  });
  it('caps a long Retry-After at maxRetryDelayMs', async () => {
    const seen: number[] = [];
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, maxRetryDelayMs: 5, onRetry: (r) => seen.push(r.delayMs) });
    emu.failNext(1, 429, 3600);
    await c.listJobs(zone());
    expect(seen).toEqual([5]);
  });
  it('retries 5xx answers of reads (not of a POST: see reliability.test.ts), then fails with the status', async () => {
    const z = zone();
    emu.failNext(1, 503);
    const job = await client.createJob(z, { destination_conf: DEST }).catch((e: ApiError) => e);
    expect(job).toMatchObject({ status: 503, mayHaveApplied: true });
    emu.failNext(1, 503);
    expect(await client.listAllJobs(z)).toEqual([]);
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, retries: 2, retryDelayMs: 1 });
    emu.failNext(3, 500);
    const e = await failure(c.listJobs(z));
    expect([e.kind, e.status, e.code]).toEqual(['api', 500, ERROR_CODES.internal]);
  });
  it('reports a malformed JSON answer as an invalid response', async () => {
    emu.injectFaults({ rawBody: '{"result": [1, 2' });
    const e = await failure(client.listJobs(zone()));
    expect([e.kind, e.status]).toEqual(['invalid-response', 200]);
  });
  it('reports an answer that is not the envelope, or a result of the wrong shape', async () => {
    emu.injectFaults({ rawBody: '{"hello":"world"}' });
    expect((await failure(client.listJobs(zone()))).kind).toBe('invalid-response');
    emu.injectFaults({ rawBody: '{"result":{"id":"not-a-number"},"success":true,"errors":[],"messages":[]}' });
    expect((await failure(client.getJob(zone(), 1))).kind).toBe('invalid-response');
  });
  it('times out on a hung server', async () => {
    emu.injectFaults({ hang: true });
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, timeoutMs: 300 });
    const e = await failure(c.listJobs(zone()));
    expect(e.kind).toBe('timeout');
  });
  it('is cancelled by an AbortSignal, also while waiting to retry', async () => {
    emu.injectFaults({ hang: true });
    const ac = new AbortController();
    const p = client.listJobs(zone(), { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect((await failure(p)).kind).toBe('aborted');
    const ac2 = new AbortController();
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, signal: ac2.signal, onRetry: () => ac2.abort() });
    emu.failNext(1, 429, 60);
    expect((await failure(c.listJobs(zone()))).kind).toBe('aborted');
  });
  it('reports an unreachable server as a network error', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const c = new LogfilterClient({ baseUrl: `http://127.0.0.1:${port}/client/v4`, token: TOKEN, env: {}, retries: 1, retryDelayMs: 1 });
    expect((await failure(c.listJobs('z'))).kind).toBe('network');
  });
  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
});

describe("set-up as the provider's tools do it", () => {
  const HERE = 'http://127.0.0.1:1/client/v4';
  it('reads the provider variables when no LOGFILTER_* credential is set; LOGFILTER_* and options win', () => {
    const desc = (c: LogfilterClient) => c.describeRequest('GET', '/zones/z/logexport/jobs').headers;
    expect(new LogfilterClient({ baseUrl: HERE, env: { CLOUDFLARE_API_TOKEN: 'cf' } }).authScheme).toBe('token');
    expect(desc(new LogfilterClient({ baseUrl: HERE, env: { CLOUDFLARE_EMAIL: 'a@b.c', CLOUDFLARE_API_KEY: 'k' } }))['X-Auth-Email']).toBe('a@b.c');
    // LOGFILTER_* wins as a whole: its key pair is used, never mixed with the provider's token.
    const ours = new LogfilterClient({ baseUrl: HERE, env: { CLOUDFLARE_API_TOKEN: 'cf', LOGFILTER_AUTH_EMAIL: 'me@x.y', LOGFILTER_AUTH_KEY: 'k2' } });
    expect([ours.authScheme, desc(ours)['X-Auth-Email']]).toEqual(['key', 'me@x.y']);
    expect(new LogfilterClient({ baseUrl: HERE, email: 'o@p.q', key: 'k3', env: { CLOUDFLARE_API_TOKEN: 'cf' } }).authScheme).toBe('key');
    // A half pair of the provider's names the provider's variables.
    try {
      new LogfilterClient({ baseUrl: HERE, env: { CLOUDFLARE_EMAIL: 'a@b.c' } });
      expect.unreachable();
    } catch (e) {
      expect((e as ApiError).kind).toBe('config');
      expect((e as ApiError).message).toContain('CLOUDFLARE_API_KEY');
    }
  });

  it('says which variables it looked at when there is no credential', async () => {
    const e = await failure(new LogfilterClient({ baseUrl: HERE, env: {} }).listJobs('z'));
    expect(e.kind).toBe('config');
    for (const name of ['LOGFILTER_API_TOKEN', 'LOGFILTER_AUTH_EMAIL', 'LOGFILTER_AUTH_KEY', 'CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_EMAIL', 'CLOUDFLARE_API_KEY']) expect(e.message).toContain(name);
  });

  it("speaks the provider's words by default, the description's with LOGFILTER_API_NAMES=neutral or the names option", async () => {
    const url = (c: LogfilterClient, path: string) => c.describeRequest('GET', path).url;
    const provider = new LogfilterClient({ baseUrl: HERE, token: 't', env: {} });
    expect(provider.names).toBe('provider');
    expect(url(provider, '/zones/z/logexport/jobs')).toBe(`${HERE}/zones/z/logpush/jobs`);
    expect(url(provider, '/zones/z/page_guard')).toBe(`${HERE}/zones/z/page_shield`);
    expect(provider.describeRequest('PUT', '/zones/z/page_guard', { use_service_reporting_endpoint: true }).body).toEqual({ use_cloudflare_reporting_endpoint: true });
    const neutral = new LogfilterClient({ baseUrl: HERE, token: 't', env: { LOGFILTER_API_NAMES: 'neutral' } });
    expect(url(neutral, '/zones/z/logpush/jobs')).toBe(`${HERE}/zones/z/logexport/jobs`);
    expect(new LogfilterClient({ baseUrl: HERE, token: 't', names: 'neutral', env: {} }).names).toBe('neutral');
    expect(() => new LogfilterClient({ baseUrl: HERE, token: 't', env: { LOGFILTER_API_NAMES: 'brand' } })).toThrow(ApiError);
  });

  it('works against the emulator in both spellings, and reads answers of either as its types', async () => {
    for (const names of ['provider', 'neutral'] as const) {
      const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, names, env: {} });
      const z = `spelling-${names}`;
      const s = await c.pageGuard.updateSettings(z, { use_service_reporting_endpoint: true });
      expect(s.use_service_reporting_endpoint).toBe(true);
      const job = await c.createJob(z, { destination_conf: 'https://logs.example.com/in' });
      expect((await c.listJobs(z)).items.map((j) => j.id)).toEqual([job.id]);
    }
  });
});

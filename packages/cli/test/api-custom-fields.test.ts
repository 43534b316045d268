import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { getCustomFields, LogfilterClient } from '@logfilter/api';
import { logfilter } from './api-harness.js';

const TOKEN = 'cf-cli-token';
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;
let zn = 0;
const zone = () => `cli-cf-${++zn}`;
const DEST = 's3://bucket/logs?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], latencyMs: 2 });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

const fields = async (z: string) => (await getCustomFields(api, z)).fields;

describe('logfilter custom-fields', () => {
  it('runs the whole procedure from an empty zone', async () => {
    const z = zone();
    const show0 = await logfilter(['custom-fields', 'show', '--zone', z, '--json'], env);
    expect(JSON.parse(show0.stdout)).toMatchObject({ ruleset_id: null, request_headers: [], response_headers: [], cookies: [] });
    const add = await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'user-agent', '--request-header', 'x-request-id', '--response-header', 'server', '--cookie', 'SessionID', '--json'], env);
    expect(add.code).toBe(0);
    const out = JSON.parse(add.stdout);
    expect(out).toMatchObject({ changed: true, request_headers: ['user-agent', 'x-request-id'], response_headers: ['server'], cookies: ['SessionID'] });
    const rs = await api.getRuleset(z, out.ruleset_id);
    expect(rs).toMatchObject({ kind: 'zone', phase: 'http_log_custom_fields' });
    expect(rs.rules).toHaveLength(1);
    const show = await logfilter(['custom-fields', 'show', '--zone', z, '--json'], env);
    expect(JSON.parse(show.stdout)).toMatchObject({ ruleset_id: out.ruleset_id, request_headers: ['user-agent', 'x-request-id'], cookies: ['SessionID'] });
    expect((await logfilter(['custom-fields', 'show', '--zone', z], env)).stdout).toContain('SessionID');
  });

  it('merges into an existing ruleset, keeping other rules, and removes', async () => {
    const z = zone();
    await api.createRuleset(z, {
      name: 'mine',
      kind: 'zone',
      phase: 'http_log_custom_fields',
      rules: [{ action: 'log_custom_field', expression: 'true', action_parameters: { request_fields: [{ name: 'accept' }], cookie_fields: [{ name: 'Keep' }] } }],
    });
    expect((await logfilter(['custom-fields', 'add', '--zone', z, '--cookie', 'New', '--response-header', 'server'], env)).code).toBe(0);
    expect(await fields(z)).toEqual({ requestHeaders: ['accept'], responseHeaders: ['server'], cookies: ['Keep', 'New'] });
    expect((await logfilter(['custom-fields', 'remove', '--zone', z, '--request-header', 'accept', '--cookie', 'New'], env)).code).toBe(0);
    expect(await fields(z)).toEqual({ requestHeaders: [], responseHeaders: ['server'], cookies: ['Keep'] });
    expect((await logfilter(['custom-fields', 'set', '--zone', z, '--request-header', 'host'], env)).code).toBe(0);
    expect(await fields(z)).toEqual({ requestHeaders: ['host'], responseHeaders: [], cookies: [] });
  });

  it('loses nothing when two add commands run at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const z = zone();
      await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'base'], env);
      const [a, b] = await Promise.all([
        logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'from-a', '--cookie', 'A'], env),
        logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'from-b', '--cookie', 'B'], env),
      ]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const now = await fields(z);
      expect([...now.requestHeaders].sort()).toEqual(['base', 'from-a', 'from-b']);
      expect([...now.cookies].sort()).toEqual(['A', 'B']);
    }
  });

  it('refuses case and limit errors with exit 1 and changes nothing', async () => {
    const z = zone();
    await logfilter(['custom-fields', 'set', '--zone', z, '--request-header', 'a'], env);
    const version = (await getCustomFields(api, z)).ruleset!.version;
    const before = emu.requestCount;
    const upper = await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'User-Agent'], env);
    expect(upper.code).toBe(1);
    expect(upper.stderr.trim().split('\n')).toHaveLength(1);
    const tooMany = ['custom-fields', 'set', '--zone', z, ...Array.from({ length: 41 }, (_, i) => ['--cookie', `c${i}`]).flat()];
    expect((await logfilter(tooMany, env)).code).toBe(1);
    expect(emu.requestCount).toBe(before);
    // Over 40 together with what the zone has: read, but nothing written.
    const add40 = ['custom-fields', 'add', '--zone', z, ...Array.from({ length: 40 }, (_, i) => ['--cookie', `c${i}`]).flat()];
    expect((await logfilter(add40, env)).code).toBe(1);
    expect((await getCustomFields(api, z)).ruleset!.version).toBe(version);
    expect(await fields(z)).toEqual({ requestHeaders: ['a'], responseHeaders: [], cookies: [] });
  });

  it('names jobs that lack the log fields and adds them with --update-jobs', async () => {
    const z = zone();
    const lacking = await api.createJob(z, { destination_conf: DEST, name: 'lacking', logpull_options: 'fields=ClientIP&timestamps=rfc3339' });
    const ok = await api.createJob(z, { destination_conf: DEST, name: 'ok', logpull_options: 'fields=ClientIP,RequestHeaders,Cookies' });
    await api.createJob(z, { destination_conf: DEST, dataset: 'dns_logs' });
    const r = await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'accept', '--cookie', 'S', '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.jobs_missing_fields).toEqual([{ id: lacking.id, name: 'lacking', missing: ['RequestHeaders', 'Cookies'], updatable: true }]);
    expect(out.updated_jobs).toEqual([]);
    const human = await logfilter(['custom-fields', 'add', '--zone', z, '--cookie', 'S'], env);
    expect(human.stdout).toContain(`job ${lacking.id}`);
    expect(human.stdout).toContain('--update-jobs');
    const upd = await logfilter(['custom-fields', 'add', '--zone', z, '--cookie', 'S', '--update-jobs', '--json'], env);
    expect(JSON.parse(upd.stdout)).toMatchObject({ updated_jobs: [lacking.id], jobs_missing_fields: [] });
    expect((await api.getJob(z, lacking.id)).logpull_options).toBe('fields=ClientIP,RequestHeaders,Cookies&timestamps=rfc3339');
    expect((await api.getJob(z, ok.id)).logpull_options).toBe('fields=ClientIP,RequestHeaders,Cookies');
  });

  it('fails with exit 1 on credentials and API failures, exit 2 on usage', async () => {
    const z = zone();
    const wrong = await logfilter(['custom-fields', 'show', '--zone', z], { ...env, LOGFILTER_API_TOKEN: 'bad-token-x' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).not.toContain('bad-token-x');
    emu.failNext(1, 429, 0);
    expect((await logfilter(['custom-fields', 'add', '--zone', z, '--cookie', 'A'], env)).code).toBe(0);
    emu.failNext(2, 500); // --retries 1: two attempts, both fail
    const down = await logfilter(['custom-fields', 'show', '--zone', z, '--retries', '1'], env);
    expect(down.code).toBe(1);
    expect((await logfilter(['custom-fields', 'add', '--zone', z], env)).code).toBe(2);
    expect((await logfilter(['custom-fields', 'show'], env)).code).toBe(2);
    expect((await logfilter(['custom-fields', 'frobnicate', '--zone', z], env)).code).toBe(2);
  });

  it('a change without credentials is a set-up error (exit 2, nothing sent), as show is', async () => {
    const before = emu.requestCount;
    const noCredentials = { LOGFILTER_BASE_URL: emu.url };
    for (const op of ['show', 'set', 'add', 'remove']) {
      const r = await logfilter(['custom-fields', op, '--zone', zone(), ...(op === 'show' ? [] : ['--cookie', 'A']), '--json'], noCredentials);
      expect([op, r.code, JSON.parse(r.stdout)]).toMatchObject([op, 2, { ok: false, exit: 2, kind: 'setup' }]);
    }
    expect(emu.requestCount).toBe(before);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import {
  addCustomFields,
  addFieldsToJob,
  CustomFieldsError,
  CUSTOM_FIELDS_PHASE,
  getCustomFields,
  jobsLackingCustomFields,
  LogfilterClient,
  removeCustomFields,
  setCustomFields,
  type CustomFields,
} from '@logfilter/api';
import { own } from './support.js';

let emu: RunningEmulator;
let client: LogfilterClient;
let zn = 0;
const zone = () => `cf-zone-${++zn}`;
const f = (requestHeaders: string[] = [], responseHeaders: string[] = [], cookies: string[] = []): CustomFields => ({ requestHeaders, responseHeaders, cookies });
const DEST = 's3://bucket/logs?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['t'], latencyMs: 2 });
  client = new LogfilterClient({ baseUrl: emu.url, token: 't', env: {}, retryDelayMs: 1 });
});
afterAll(() => emu.close());

describe('the custom-field procedure', () => {
  it('starts from an empty zone: creates the ruleset of the phase and one rule', async () => {
    const z = zone();
    expect((await getCustomFields(client, z)).ruleset).toBeNull();
    const r = await addCustomFields(client, z, f(['user-agent'], ['server'], ['SessionID']));
    expect(r.changed).toBe(true);
    expect(r.fields).toEqual(f(['user-agent'], ['server'], ['SessionID']));
    const rulesets = own(await client.listAllRulesets(z));
    expect(rulesets).toHaveLength(1);
    expect(rulesets[0]).toMatchObject({ kind: 'zone', phase: CUSTOM_FIELDS_PHASE });
    const rs = await client.getRuleset(z, rulesets[0].id);
    expect(rs.rules).toHaveLength(1);
    expect(rs.rules[0]).toMatchObject({
      action: 'log_custom_field',
      expression: 'true',
      action_parameters: { request_fields: [{ name: 'user-agent' }], response_fields: [{ name: 'server' }], cookie_fields: [{ name: 'SessionID' }] },
    });
  });

  it('starts from an existing ruleset with other rules and loses none of them', async () => {
    const z = zone();
    const rs = await client.createRuleset(z, {
      name: 'existing',
      kind: 'zone',
      phase: CUSTOM_FIELDS_PHASE,
      rules: [
        { action: 'log_custom_field', expression: 'true', description: 'first', action_parameters: { request_fields: [{ name: 'accept' }] } },
        { action: 'log_custom_field', expression: 'true', description: 'second', action_parameters: { cookie_fields: [{ name: 'B' }] } },
      ],
    });
    const r = await addCustomFields(client, z, f(['x-id'], [], ['B', 'C']));
    expect(r.before).toEqual(f(['accept'], [], ['B']));
    expect(r.fields).toEqual(f(['accept', 'x-id'], [], ['B', 'C']));
    // The rules that were there are untouched; what was missing came as one more rule (an atomic add).
    const after = await client.getRuleset(z, rs.id);
    expect(after.rules.slice(0, 2)).toEqual(rs.rules);
    expect(after.rules).toHaveLength(3);
    expect(after.rules[2].action_parameters).toEqual({ request_fields: [{ name: 'x-id' }], cookie_fields: [{ name: 'C' }] });
    expect(own(await client.listAllRulesets(z))).toHaveLength(1);
  });

  it('adds what is missing only, and writes nothing when all is there', async () => {
    const z = zone();
    await addCustomFields(client, z, f(['a']));
    const v = (await getCustomFields(client, z)).ruleset!.version;
    const again = await addCustomFields(client, z, f(['a']));
    expect(again.changed).toBe(false);
    expect((await getCustomFields(client, z)).ruleset!.version).toBe(v);
  });

  it('removes some fields and keeps the others; removing the last drops the rule', async () => {
    const z = zone();
    await setCustomFields(client, z, f(['a', 'b'], ['c'], ['D']));
    const r = await removeCustomFields(client, z, f(['b'], [], ['D']));
    expect(r.fields).toEqual(f(['a'], ['c']));
    const last = await removeCustomFields(client, z, f(['a'], ['c']));
    expect(last.fields).toEqual(f());
    expect(last.ruleset!.rules).toEqual([]);
    // Removing from a zone without a ruleset creates nothing.
    const empty = zone();
    expect((await removeCustomFields(client, empty, f(['a']))).changed).toBe(false);
    expect(own(await client.listAllRulesets(empty))).toEqual([]);
  });

  it('set replaces on purpose', async () => {
    const z = zone();
    await addCustomFields(client, z, f(['a'], [], ['X']));
    expect((await setCustomFields(client, z, f([], ['server']))).fields).toEqual(f([], ['server']));
  });

  it.each([
    ['an upper-case header', f(['User-Agent']), 'header-case'],
    ['an upper-case response header', f([], ['Server']), 'header-case'],
    ['a name with a space', f([], [], ['a b']), 'invalid-name'],
    ['41 fields', f(Array.from({ length: 41 }, (_, i) => `h${i}`)), 'too-many'],
    ['a duplicate', f(['a', 'a']), 'duplicate'],
  ])('refuses %s before sending anything', async (_n, fields, reason) => {
    const z = zone();
    const before = emu.requestCount;
    await expect(addCustomFields(client, z, fields)).rejects.toMatchObject({ reason });
    await expect(setCustomFields(client, z, fields)).rejects.toBeInstanceOf(CustomFieldsError);
    expect(emu.requestCount).toBe(before);
  });

  it('refuses an add that would pass 40 with what is there, and changes nothing', async () => {
    const z = zone();
    await setCustomFields(client, z, f(Array.from({ length: 39 }, (_, i) => `h${i}`)));
    const v = (await getCustomFields(client, z)).ruleset!.version;
    await expect(addCustomFields(client, z, f([], ['a'], ['B']))).rejects.toMatchObject({ reason: 'too-many' });
    const now = await getCustomFields(client, z);
    expect(now.ruleset!.version).toBe(v);
    expect(now.fields.requestHeaders).toHaveLength(39);
  });

  it('loses nothing when several adds run at the same time', async () => {
    const z = zone();
    await addCustomFields(client, z, f(['base']));
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    await Promise.all(names.map((n) => addCustomFields(new LogfilterClient({ baseUrl: emu.url, token: 't', env: {} }), z, f([`h-${n}`], [], [`C${n}`]))));
    const now = (await getCustomFields(client, z)).fields;
    expect([...now.requestHeaders].sort()).toEqual(['base', ...names.map((n) => `h-${n}`)].sort());
    expect([...now.cookies].sort()).toEqual(names.map((n) => `C${n}`).sort());
  });

  it('loses nothing when adds race on an empty zone (both try to create the ruleset)', async () => {
    const z = zone();
    await Promise.all([addCustomFields(client, z, f(['one'])), addCustomFields(new LogfilterClient({ baseUrl: emu.url, token: 't', env: {} }), z, f(['two']))]);
    expect([...(await getCustomFields(client, z)).fields.requestHeaders].sort()).toEqual(['one', 'two']);
    expect(own(await client.listAllRulesets(z))).toHaveLength(1);
  });
});

describe('jobs that lack the custom fields', () => {
  it('names http_requests jobs without Cookies/RequestHeaders/ResponseHeaders and adds them', async () => {
    const z = zone();
    const lacking = await client.createJob(z, { destination_conf: DEST, name: 'lacking', logpull_options: 'fields=ClientIP,RequestHeaders&timestamps=rfc3339&CVE-2021-44228=true' });
    const complete = await client.createJob(z, { destination_conf: DEST, name: 'complete', logpull_options: 'fields=ClientIP,RequestHeaders,Cookies' });
    const noFields = await client.createJob(z, { destination_conf: DEST, name: 'default-fields' });
    await client.createJob(z, { destination_conf: DEST, dataset: 'firewall_events', logpull_options: 'fields=ClientIP' });
    const gaps = await jobsLackingCustomFields(client, z, f(['accept'], [], ['S']));
    expect(gaps.map((g) => [g.job.id, g.missing, g.updatable])).toEqual([
      [lacking.id, ['Cookies'], true],
      [noFields.id, ['RequestHeaders', 'Cookies'], false],
    ]);
    expect(gaps.some((g) => g.job.id === complete.id)).toBe(false);
    const updated = await addFieldsToJob(client, z, gaps[0]);
    expect(updated.logpull_options).toBe('fields=ClientIP,RequestHeaders,Cookies&timestamps=rfc3339&CVE-2021-44228=true');
    expect((await jobsLackingCustomFields(client, z, f(['accept'], [], ['S']))).map((g) => g.job.id)).toEqual([noFields.id]);
    expect(await jobsLackingCustomFields(client, z, f())).toEqual([]);
  });

  it("reads and extends output_options.field_names, the list the provider exports when a job has output_options", async () => {
    const z = zone();
    const D = 'https://logs.example.com/oo';
    const has = await client.createJob(z, { destination_conf: D, name: 'has', output_options: { field_names: ['RayID', 'RequestHeaders', 'Cookies'] } });
    const lacks = await client.createJob(z, { destination_conf: D, name: 'lacks', output_options: { field_names: ['RayID', 'RequestHeaders'], output_type: 'csv', sample_rate: 0.5 } });
    // logpull_options beside output_options is ignored by the provider: its fields do not count.
    const both = await client.createJob(z, { destination_conf: D, name: 'both', logpull_options: 'fields=RayID,RequestHeaders,Cookies', output_options: { field_names: ['RayID'] } });
    const gaps = await jobsLackingCustomFields(client, z, f(['accept'], [], ['S']));
    expect(gaps.map((g) => [g.job.id, g.missing, g.updatable])).toEqual([
      [lacks.id, ['Cookies'], true],
      [both.id, ['RequestHeaders', 'Cookies'], true],
    ]);
    expect(gaps.some((g) => g.job.id === has.id)).toBe(false);
    const updated = await addFieldsToJob(client, z, gaps[0]);
    expect(updated.output_options).toEqual({ field_names: ['RayID', 'RequestHeaders', 'Cookies'], output_type: 'csv', sample_rate: 0.5 });
    expect(updated.logpull_options).toBeNull();
    const updatedBoth = await addFieldsToJob(client, z, gaps[1]);
    expect([updatedBoth.output_options?.field_names, updatedBoth.logpull_options]).toEqual([['RayID', 'RequestHeaders', 'Cookies'], 'fields=RayID,RequestHeaders,Cookies']);
    expect(await jobsLackingCustomFields(client, z, f(['accept'], [], ['S']))).toEqual([]);
  });
});

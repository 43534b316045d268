import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

/**
 * One rule for the fields of every write body: the provider's fields are taken, the read-only fields of the
 * answer are accepted (and ignored) so a GET answer can be sent back, and any other field is refused with the
 * endpoint's code and a pointer naming it. Nothing changes on a refusal.
 */
let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let n = 0;
const zone = () => `fields-${++n}`;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const JOB = { name: 'j', destination_conf: 's3://bucket/path?region=us-east-1', dataset: 'http_requests' };
const RULE = { action: 'log', expression: 'http.host eq "example.com"' };
const RULESET = { name: 'c', kind: 'custom', phase: 'http_request_firewall_custom' };
const POLICY = { action: 'log', expression: 'http.host eq "example.com"', value: "script-src 'self'" };

const refused = (r: { status: number; body: any }, code: number, pointer: string) =>
  expect([r.status, r.body.success, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, false, code, { pointer }]);

describe('unknown body fields are refused on every write body', () => {
  it.each([
    ['POST', 'logpush/jobs', { ...JOB, colour: 1 }, ERROR_CODES.jobInvalid, '/colour'],
    ['POST', 'logexport/jobs', { ...JOB, destinaton_conf: 'x' }, ERROR_CODES.jobInvalid, '/destinaton_conf'],
    ['POST', 'rulesets', { ...RULESET, colour: 1 }, ERROR_CODES.validation, '/colour'],
    ['POST', 'rulesets', { ...RULESET, rules: [RULE, { ...RULE, expresion: 'true' }] }, ERROR_CODES.validation, '/rules/1/expresion'],
    ['PUT', 'rulesets/phases/http_request_firewall_custom/entrypoint', { rules: [{ ...RULE, colour: 1 }] }, ERROR_CODES.validation, '/rules/0/colour'],
    ['POST', 'page_shield/policies', { ...POLICY, colour: 1 }, ERROR_CODES.policyInvalid, '/colour'],
    ['PUT', 'page_shield', { enabled: true, colour: true }, ERROR_CODES.settingsInvalid, '/colour'],
  ])('%s %s', async (method, path, body, code, pointer) => {
    const z = zone();
    refused(await call(method, `/zones/${z}/${path}`, body), code, pointer);
  });

  it('on updates too, and nothing changes', async () => {
    const z = zone();
    const job = (await call('POST', `/zones/${z}/logpush/jobs`, JOB)).body.result;
    refused(await call('PUT', `/zones/${z}/logpush/jobs/${job.id}`, { enabled: true, colour: 1 }), ERROR_CODES.jobInvalid, '/colour');
    const rs = (await call('POST', `/zones/${z}/rulesets`, { ...RULESET, rules: [RULE] })).body.result;
    refused(await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [{ ...RULE, colour: 1 }] }), ERROR_CODES.validation, '/rules/0/colour');
    refused(await call('POST', `/zones/${z}/rulesets/${rs.id}/rules`, { ...RULE, colour: 1 }), ERROR_CODES.validation, '/colour');
    refused(await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { enabled: false, colour: 1 }), ERROR_CODES.validation, '/colour');
    const policy = (await call('POST', `/zones/${z}/page_shield/policies`, POLICY)).body.result;
    refused(await call('PUT', `/zones/${z}/page_shield/policies/${policy.id}`, { enabled: false, colour: 1 }), ERROR_CODES.policyInvalid, '/colour');
    expect((await call('GET', `/zones/${z}/logpush/jobs/${job.id}`)).body.result.enabled).toBe(job.enabled);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).body.result.version).toBe('1');
    expect((await call('GET', `/zones/${z}/page_shield/policies/${policy.id}`)).body.result.enabled).toBe(true);
  });

  it('a GET answer sent back whole is taken (its read-only fields ignored)', async () => {
    const z = zone();
    const job = (await call('POST', `/zones/${z}/logpush/jobs`, JOB)).body.result;
    const jobBack = await call('PUT', `/zones/${z}/logpush/jobs/${job.id}`, { ...job, enabled: true });
    expect([jobBack.status, jobBack.body.result.enabled]).toEqual([200, true]);
    const rs = (await call('POST', `/zones/${z}/rulesets`, { ...RULESET, rules: [RULE] })).body.result;
    const rsBack = await call('PUT', `/zones/${z}/rulesets/${rs.id}`, rs);
    expect([rsBack.status, rsBack.body.result.rules[0].id]).toEqual([200, rs.rules[0].id]);
    const policy = (await call('POST', `/zones/${z}/page_shield/policies`, POLICY)).body.result;
    expect((await call('PUT', `/zones/${z}/page_shield/policies/${policy.id}`, policy)).status).toBe(200);
    const settings = (await call('GET', `/zones/${z}/page_shield`)).body.result;
    expect((await call('PUT', `/zones/${z}/page_shield`, settings)).status).toBe(200);
  });
});

describe('the same rule on the previous WAF and instant-logs bodies', () => {
  it('refuses an unknown field with wafInvalid or jobInvalid and a pointer, and takes a GET answer sent back', async () => {
    const z = zone();
    const W = `/zones/${z}/firewall/waf`;
    const pkgs = (await call('GET', `${W}/packages`)).body.result;
    const anomaly = pkgs.find((p: any) => p.detection_mode === 'anomaly');
    const traditional = pkgs.find((p: any) => p.detection_mode !== 'anomaly');
    refused(await call('PATCH', `${W}/packages/${anomaly.id}`, { sensitivity: 'low', colour: 1 }), ERROR_CODES.wafInvalid, '/colour');
    expect((await call('PATCH', `${W}/packages/${anomaly.id}`, { ...anomaly, sensitivity: 'low' })).status).toBe(200);
    const group = (await call('GET', `${W}/packages/${traditional.id}/groups`)).body.result[0];
    refused(await call('PATCH', `${W}/packages/${traditional.id}/groups/${group.id}`, { mode: 'off', colour: 1 }), ERROR_CODES.wafInvalid, '/colour');
    expect((await call('PATCH', `${W}/packages/${traditional.id}/groups/${group.id}`, { ...group, mode: 'off' })).status).toBe(200);
    const rule = (await call('GET', `${W}/packages/${traditional.id}/rules`)).body.result[0];
    refused(await call('PATCH', `${W}/packages/${traditional.id}/rules/${rule.id}`, { mode: 'block', colour: 1 }), ERROR_CODES.wafInvalid, '/colour');
    expect((await call('PATCH', `${W}/packages/${traditional.id}/rules/${rule.id}`, { ...rule, mode: 'block' })).status).toBe(200);
    refused(await call('POST', `${W}/overrides`, { urls: ['example.com/*'], colour: 1 }), ERROR_CODES.wafInvalid, '/colour');
    const override = (await call('POST', `${W}/overrides`, { urls: ['example.com/*'] })).body.result;
    expect((await call('PUT', `${W}/overrides/${override.id}`, { ...override, paused: true })).status).toBe(200);
    refused(await call('POST', `/zones/${z}/logpush/edge/jobs`, { fields: 'ClientIP', colour: 1 }), ERROR_CODES.jobInvalid, '/colour');
    expect((await call('POST', `/zones/${z}/logpush/edge/jobs`, { fields: 'ClientIP', sample: 1, filter: '' })).status).toBe(200);
  });
});

describe('the same rule on the log export helper calls', () => {
  it.each([
    ['logpush/ownership', { destination_conf: 's3://b/p?region=us-east-1', colour: 1 }],
    ['logpush/ownership/validate', { destination_conf: 's3://b/p?region=us-east-1', ownership_challenge: 'x', colour: 1 }],
    ['logpush/validate/destination', { destination_conf: 's3://b/p?region=us-east-1', colour: 1 }],
    ['logpush/validate/destination/exists', { destination_conf: 's3://b/p?region=us-east-1', colour: 1 }],
    ['logpush/validate/origin', { logpull_options: 'fields=ClientIP', colour: 1 }],
  ])('POST %s', async (path, body) => {
    refused(await call('POST', `/zones/${zone()}/${path}`, body), ERROR_CODES.jobInvalid, '/colour');
    const { colour: _, ...fine } = body;
    expect((await call('POST', `/zones/${zone()}/${path}`, fine)).status).toBe(200);
  });
});

/**
 * Members of a field that is an object, where the provider's OpenAPI document gives them completely: a rule's
 * `logging` (`enabled`), the `position` of an added or moved rule (`before`, `after`, `index`), a job's
 * `output_options` (its twelve options). An unknown member is refused as an unknown field is, with a pointer into
 * the object. Left open: `action_parameters` (its members vary by action), `ratelimit` and
 * `exposed_credential_check` (not in the document's copy), the previous WAF's `rules` and `groups` (maps keyed by id).
 */
describe('unknown members of nested objects', () => {
  const SKIP = { action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' } };
  it.each([
    ['POST', 'rulesets', { ...RULESET, rules: [RULE, { ...SKIP, logging: { enabled: true, colour: 1 } }] }, ERROR_CODES.validation, '/rules/1/logging/colour'],
    ['PUT', 'rulesets/phases/http_request_firewall_custom/entrypoint', { rules: [{ ...SKIP, logging: { enabled: false, colour: 1 } }] }, ERROR_CODES.validation, '/rules/0/logging/colour'],
    ['POST', 'logpush/jobs', { ...JOB, output_options: { output_type: 'ndjson', colour: 1 } }, ERROR_CODES.jobInvalid, '/output_options/colour'],
  ])('%s %s', async (method, path, body, code, pointer) => {
    refused(await call(method, `/zones/${zone()}/${path}`, body), code, pointer);
  });

  it('on a rule added or patched (logging, position), and nothing changes', async () => {
    const z = zone();
    const rs = (await call('POST', `/zones/${z}/rulesets`, { ...RULESET, rules: [RULE] })).body.result;
    const base = `/zones/${z}/rulesets/${rs.id}/rules`;
    refused(await call('POST', base, { ...SKIP, logging: { enabled: true, colour: 1 } }), ERROR_CODES.validation, '/logging/colour');
    refused(await call('PATCH', `${base}/${rs.rules[0].id}`, { ...SKIP, logging: { enabled: true, colour: 1 } }), ERROR_CODES.validation, '/logging/colour');
    refused(await call('POST', base, { ...RULE, position: { index: 1, colour: 2 } }), ERROR_CODES.invalidPosition, '/position/colour');
    refused(await call('PATCH', `${base}/${rs.rules[0].id}`, { position: { befor: '' } }), ERROR_CODES.invalidPosition, '/position/befor');
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).body.result.version).toBe('1');
    // the members the document gives are taken
    const added = await call('POST', base, { ...SKIP, logging: { enabled: false }, position: { index: 1 } });
    expect([added.status, added.body.result.rules[0].logging]).toEqual([200, { enabled: false }]);
  });
});

describe('a member named __proto__ is a field like any other', () => {
  // Sent as raw JSON: in a JavaScript object literal `__proto__` would set the prototype instead of a member.
  const raw = (fields: string) => `{"name":"j","destination_conf":"https://logs.example.com/p",${fields}}`;
  it.each([
    ['logpush', '/__proto__', raw('"__proto__":{"dataset":"firewall_events","colour":1}')],
    ['logexport', '/__proto__', raw('"__proto__":{"destination_conf":"https://logs.example.com/other"}')],
    ['logpush', '/output_options/__proto__', raw('"output_options":{"__proto__":{"output_type":"csv"}}')],
  ])('%s: refused with the pointer %s, nothing created, nothing read from inside it', async (words, pointer, body) => {
    const z = zone();
    refused(await call('POST', `/zones/${z}/${words}/jobs`, body), ERROR_CODES.jobInvalid, pointer);
    expect((await call('GET', `/zones/${z}/${words}/jobs`)).body.result).toEqual([]);
  });
  it('a body that is only a __proto__ member lacks destination_conf; an update with one changes nothing', async () => {
    const z = zone();
    const none = await call('POST', `/zones/${z}/logpush/jobs`, '{"__proto__":{"destination_conf":"https://logs.example.com/p"}}');
    expect([none.status, none.body.errors[0].code]).toEqual([400, ERROR_CODES.jobInvalid]);
    const job = (await call('POST', `/zones/${z}/logpush/jobs`, { destination_conf: 'https://logs.example.com/p' })).body.result;
    refused(await call('PUT', `/zones/${z}/logpush/jobs/${job.id}`, '{"__proto__":{"enabled":true,"name":"x"}}'), ERROR_CODES.jobInvalid, '/__proto__');
    expect((await call('GET', `/zones/${z}/logpush/jobs/${job.id}`)).body.result).toMatchObject({ enabled: false, name: null });
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule } from './http.js';

/**
 * Departures from the provider's API (its documentation and its OpenAPI document, test/fixtures/openapi) found by
 * an acceptance audit of the zone API, each pinned over real HTTP.
 */
let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let n = 0;
const zone = () => `audit-${++n}`;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const managedEntry = (z: string, action_parameters: unknown) =>
  call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`, { rules: [{ action: 'execute', expression: 'true', action_parameters }] });

describe('execute action parameters have the types of the provider\'s ExecuteRule', () => {
  // id (string); overrides (object) holding rules: array of {id: string, action: string, enabled: boolean};
  // categories [{category, action?, enabled?}], action?, enabled?; `allow` is not an action.
  const RULE = '5de7edfa648c4d6891dc3e7f84534ffa';
  const CORE = '6179ae15870a4bb7b2d480d4843b323c';
  it.each([
    ['id not a string', { id: 123 }, ERROR_CODES.validation, '/rules/0/action_parameters/id'],
    ['version not a string', { id: MANAGED_RULESET_ID, version: 1 }, ERROR_CODES.validation, '/rules/0/action_parameters/version'],
    ['overrides not an object', { id: MANAGED_RULESET_ID, overrides: [] }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides'],
    ['overrides.rules not an array', { id: MANAGED_RULESET_ID, overrides: { rules: { id: RULE } } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules'],
    // The schema's RulesetId and RuleId: 32 lowercase hex digits (what the provider's ids, and the emulator's, are).
    ['an id that is no ruleset id', { id: 'owasp' }, ERROR_CODES.validation, '/rules/0/action_parameters/id'],
    ['an override rule id that is no rule id', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: '100015', action: 'log' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/id'],
    ['an override rule without id', { id: MANAGED_RULESET_ID, overrides: { rules: [{ action: 'log' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/id'],
    ['an override rule id not a string', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: 7, action: 'log' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/id'],
    ['an override enabled not a boolean', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE, enabled: 'no' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/enabled'],
    ['an override action that is no action', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE, action: 'allow' }] } }, ERROR_CODES.unknownAction, '/rules/0/action_parameters/overrides/rules/0/action'],
    ['an override score_threshold not an integer', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE, score_threshold: '40' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/score_threshold'],
    ['a category override without category', { id: MANAGED_RULESET_ID, overrides: { categories: [{ action: 'log' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/categories/0/category'],
    ['a category override action that is no action', { id: MANAGED_RULESET_ID, overrides: { categories: [{ category: 'wordpress', action: 'allow' }] } }, ERROR_CODES.unknownAction, '/rules/0/action_parameters/overrides/categories/0/action'],
    ['a ruleset-level override enabled not a boolean', { id: MANAGED_RULESET_ID, overrides: { enabled: 'true' } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/enabled'],
    ['a ruleset-level override action that is no action', { id: MANAGED_RULESET_ID, overrides: { action: 'allow' } }, ERROR_CODES.unknownAction, '/rules/0/action_parameters/overrides/action'],
    // The schema: sensitivity_level is one of default, medium, low, eoff; an override item changes something (minProperties 2).
    ['a sensitivity level outside its set', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE, sensitivity_level: 'high' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0/sensitivity_level'],
    ['a rule override that changes nothing', { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/rules/0'],
    ['a category override that changes nothing', { id: MANAGED_RULESET_ID, overrides: { categories: [{ category: 'wordpress' }] } }, ERROR_CODES.validation, '/rules/0/action_parameters/overrides/categories/0'],
  ])('refuses %s, with the pointer to it, and changes nothing', async (_name, params, code, pointer) => {
    const z = zone();
    const r = await managedEntry(z, params);
    expect([r.status, r.body.success, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, false, code, { pointer }]);
    expect((await call('GET', `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`)).status).toBe(404);
  });
  it('accepts every documented form of overrides', async () => {
    const r = await managedEntry(zone(), {
      id: MANAGED_RULESET_ID,
      version: 'latest',
      overrides: {
        action: 'log',
        enabled: true,
        categories: [{ category: 'wordpress', action: 'block', enabled: false }],
        rules: [{ id: RULE, action: 'managed_challenge', enabled: true, score_threshold: 40, sensitivity_level: 'medium' }, { id: CORE, sensitivity_level: 'eoff' }],
      },
    });
    expect([r.status, r.body.result.rules[0].action_parameters.overrides.rules[0].score_threshold]).toEqual([200, 40]);
  });
  it('checks a rule added or patched alone the same way', async () => {
    const z = zone();
    const created = (await call('POST', `/zones/${z}/rulesets`, { name: 'e', kind: 'zone', phase: 'http_request_firewall_managed', rules: [] })).body.result;
    const add = await call('POST', `/zones/${z}/rulesets/${created.id}/rules`, { action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID, overrides: { rules: [{ id: RULE, enabled: 'no' }] } } });
    expect([add.status, add.body.errors[0].code, add.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/action_parameters/overrides/rules/0/enabled' }]);
    const ok = await call('POST', `/zones/${z}/rulesets/${created.id}/rules`, { action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } });
    const ruleId = ok.body.result.rules[0].id;
    const patch = await call('PATCH', `/zones/${z}/rulesets/${created.id}/rules/${ruleId}`, { action: 'execute', action_parameters: { id: false } });
    expect([patch.status, patch.body.errors[0].code, patch.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/action_parameters/id' }]);
  });
});

describe('an error about one field of the body names it in source.pointer (emulator README, "Behaviour")', () => {
  it.each([
    ['a ruleset name of the wrong type', 'POST', '/rulesets', { name: 5, kind: 'custom', phase: 'http_request_firewall_custom' }, ERROR_CODES.validation, '/name'],
    ['a ruleset without name', 'POST', '/rulesets', { kind: 'custom', phase: 'http_request_firewall_custom' }, ERROR_CODES.validation, '/name'],
    ['an unknown kind', 'POST', '/rulesets', { name: 'x', kind: 'nope', phase: 'http_request_firewall_custom' }, ERROR_CODES.validation, '/kind'],
    ['a rule without expression', 'POST', '/rulesets', { name: 'x', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'block' }] }, ERROR_CODES.validation, '/rules/0/expression'],
    ['a rule enabled not a boolean', 'POST', '/rulesets', { name: 'x', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'true', enabled: 'yes' }] }, ERROR_CODES.validation, '/rules/0/enabled'],
    ['a job without destination', 'POST', '/logexport/jobs', { name: 'j' }, ERROR_CODES.jobInvalid, '/destination_conf'],
    ['a job filter that is an object', 'POST', '/logexport/jobs', { destination_conf: 'https://logs.example.com/in', filter: { where: {} } }, ERROR_CODES.jobInvalid, '/filter'],
    ['a job destination that is no URL', 'POST', '/logexport/jobs', { destination_conf: 'not a url' }, ERROR_CODES.jobInvalid, '/destination_conf'],
    ['an unknown dataset', 'POST', '/logexport/jobs', { destination_conf: 'https://logs.example.com/in', dataset: 'nope' }, ERROR_CODES.datasetInvalid, '/dataset'],
    ['a filter that is not JSON', 'POST', '/logexport/jobs', { destination_conf: 'https://logs.example.com/in', filter: '{where' }, ERROR_CODES.filterNotJson, '/filter'],
    ['a filter that fails a check', 'POST', '/logexport/jobs', { destination_conf: 'https://logs.example.com/in', filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}}' }, ERROR_CODES.filterInvalid, '/filter'],
    ['unknown logpull_options', 'POST', '/logexport/jobs', { destination_conf: 'https://logs.example.com/in', logpull_options: 'fields=Nope' }, ERROR_CODES.logpullOptions, '/logpull_options'],
  ])('%s', async (_name, method, path, body, code, pointer) => {
    const r = await call(method, `/zones/${zone()}${path}`, body);
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, code, { pointer }]);
  });
  it.each([
    ['an expression that is not true', { ...cfRule({ req: ['ua'] }), expression: 'http.host eq "a"' }, ERROR_CODES.customFieldExpression, '/rules/0/expression'],
    ['no field at all', cfRule({}), ERROR_CODES.customFieldEmpty, '/rules/0/action_parameters'],
    // the provider's schema: each list given has at least one item (minItems 1), also beside a list with fields
    ['an empty request_fields beside cookie fields', cfRule({ req: [], cookies: ['a'] }), ERROR_CODES.customFieldEmpty, '/rules/0/action_parameters/request_fields'],
    ['an empty cookie_fields beside header fields', cfRule({ req: ['ua'], cookies: [] }), ERROR_CODES.customFieldEmpty, '/rules/0/action_parameters/cookie_fields'],
    ['a list that is not an array', { ...cfRule({}), action_parameters: { request_fields: 'ua' } }, ERROR_CODES.validation, '/rules/0/action_parameters/request_fields'],
    ['a header name in upper case', cfRule({ req: ['ua', 'User-Agent'] }), ERROR_CODES.customFieldName, '/rules/0/action_parameters/request_fields/1/name'],
    ['a name twice', cfRule({ cookies: ['a', 'a'] }), ERROR_CODES.customFieldDuplicate, '/rules/0/action_parameters/cookie_fields/1/name'],
  ])('a custom field rule with %s', async (_name, rule, code, pointer) => {
    const r = await call('PUT', `/zones/${zone()}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [rule] });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, code, { pointer }]);
  });
  it('an empty field list is refused on a rule added or patched alone too, and nothing changes', async () => {
    const z = zone();
    const ok = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: ['ua'] })] });
    expect(ok.status).toBe(200);
    const { id, rules } = ok.body.result;
    const add = await call('POST', `/zones/${z}/rulesets/${id}/rules`, cfRule({ res: [], cookies: ['a'] }));
    expect([add.status, add.body.errors[0].code, add.body.errors[0].source]).toEqual([400, ERROR_CODES.customFieldEmpty, { pointer: '/action_parameters/response_fields' }]);
    const patch = await call('PATCH', `/zones/${z}/rulesets/${id}/rules/${rules[0].id}`, { action: 'log_custom_field', action_parameters: { request_fields: [{ name: 'ua' }], cookie_fields: [] } });
    expect([patch.status, patch.body.errors[0].code, patch.body.errors[0].source]).toEqual([400, ERROR_CODES.customFieldEmpty, { pointer: '/action_parameters/cookie_fields' }]);
    const now = await call('GET', `/zones/${z}/rulesets/${id}`);
    expect(now.body.result.version).toBe('1');
    expect(now.body.result.rules[0].action_parameters).toEqual({ request_fields: [{ name: 'ua' }] });
  });
});

describe('a job name is what the provider takes (its OpenAPI document: ^[a-zA-Z0-9\\-\\.]*$, at most 512)', () => {
  // The provider refuses other names when the job is created (its Terraform provider checks the same pattern
  // before applying because the API refused them): no space, no underscore.
  it.each(['default fields', 'my_job', 'bad!', 'é'])('refuses %j on create and on update, naming the field', async (name) => {
    const z = zone();
    const r = await call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: 'https://logs.example.com/in', name });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.jobInvalid, { pointer: '/name' }]);
    const ok = await call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: 'https://logs.example.com/in', name: 'shop.example-com' });
    const u = await call('PUT', `/zones/${z}/logexport/jobs/${ok.body.result.id}`, { name });
    expect([u.status, u.body.errors[0].code, u.body.errors[0].source]).toEqual([400, ERROR_CODES.jobInvalid, { pointer: '/name' }]);
    expect((await call('GET', `/zones/${z}/logexport/jobs/${ok.body.result.id}`)).body.result.name).toBe('shop.example-com');
  });
  it.each(['', 'example.com', 'A-1.b', null])('accepts %j', async (name) => {
    const r = await call('POST', `/zones/${zone()}/logexport/jobs`, { destination_conf: 'https://logs.example.com/in', name });
    expect([r.status, r.body.result.name]).toEqual([200, name]);
  });
});

describe('an unknown phase in an entry point path is refused as the PUT refuses it (20022), on every method', () => {
  // The schema's ruleset_phase is a closed set; a typo used to read as "no entry point" (404) or an empty list.
  it.each([
    ['GET', '/rulesets/phases/http_request_firwall_custom/entrypoint'],
    ['GET', '/rulesets/phases/http_request_firwall_custom/entrypoint/versions'],
    ['GET', '/rulesets/phases/http_request_firwall_custom/entrypoint/versions/1'],
    ['PUT', '/rulesets/phases/http_request_firwall_custom/entrypoint'],
  ])('%s %s', async (method, path) => {
    for (const scope of [`/zones/${zone()}`, `/accounts/${zone()}`]) {
      const r = await call(method, `${scope}${path}`, method === 'PUT' ? { rules: [] } : undefined);
      expect([r.status, r.body.success, r.body.errors[0].code]).toEqual([400, false, ERROR_CODES.unknownPhase]);
      expect(r.body.errors[0].message).toContain('http_request_firewall_custom');
    }
  });
  it('a known phase without an entry point is still 404 (10003), and its versions an empty list', async () => {
    const z = zone();
    const get = await call('GET', `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`);
    expect([get.status, get.body.errors[0].code]).toEqual([404, ERROR_CODES.entrypointNotFound]);
    const versions = await call('GET', `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint/versions`);
    expect([versions.status, versions.body.result]).toEqual([200, []]);
  });
});

describe('a rule\'s ref is unique in its ruleset, and names the rule on an update (the provider\'s docs: "ref … must be unique for each rule in a ruleset"; a rule sent with the ref of an existing rule keeps its id)', () => {
  const body = (rules: unknown[]) => ({ name: 'refs', kind: 'custom', phase: 'http_request_firewall_custom', rules });
  it('refuses two rules with one ref, on create, update, add and patch, naming the second; nothing changes', async () => {
    const z = zone();
    const twice = await call('POST', `/zones/${z}/rulesets`, body([{ action: 'block', expression: 'true', ref: 'r1' }, { action: 'log', expression: 'true', ref: 'r1' }]));
    expect([twice.status, twice.body.errors[0].code, twice.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/rules/1/ref' }]);
    const made = (await call('POST', `/zones/${z}/rulesets`, body([{ action: 'block', expression: 'true', ref: 'r1' }, { action: 'log', expression: 'true', ref: 'r2' }]))).body.result;
    const [first, second] = made.rules;
    const put = await call('PUT', `/zones/${z}/rulesets/${made.id}`, { rules: [{ id: first.id, action: 'block', expression: 'true', ref: 'r1' }, { id: second.id, action: 'log', expression: 'true', ref: 'r1' }] });
    expect([put.status, put.body.errors[0].code, put.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/rules/1/ref' }]);
    const add = await call('POST', `/zones/${z}/rulesets/${made.id}/rules`, { action: 'block', expression: 'true', ref: 'r2' });
    expect([add.status, add.body.errors[0].code, add.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/ref' }]);
    const patch = await call('PATCH', `/zones/${z}/rulesets/${made.id}/rules/${second.id}`, { ref: 'r1' });
    expect([patch.status, patch.body.errors[0].code, patch.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/ref' }]);
    // A rule's own ref sent again is no conflict.
    expect((await call('PATCH', `/zones/${z}/rulesets/${made.id}/rules/${second.id}`, { ref: 'r2', description: 'same ref' })).status).toBe(200);
    const now = (await call('GET', `/zones/${z}/rulesets/${made.id}`)).body.result;
    expect([now.version, now.rules.map((r: any) => r.ref)]).toEqual(['2', ['r1', 'r2']]);
  });
  it('a PUT of rules without ids keeps the id (and the version, when unchanged) of the rule with the same ref', async () => {
    const z = zone();
    const made = (await call('POST', `/zones/${z}/rulesets`, body([{ action: 'block', expression: 'true', ref: 'keep' }, { action: 'log', expression: 'true', ref: 'change' }]))).body.result;
    const put = await call('PUT', `/zones/${z}/rulesets/${made.id}`, {
      rules: [
        { action: 'log', expression: 'true', ref: 'change', description: 'changed' },
        { action: 'block', expression: 'true', ref: 'keep' },
        { action: 'block', expression: 'http.host eq "new.example"', ref: 'new' },
      ],
    });
    expect(put.status).toBe(200);
    const [changed, kept, added] = put.body.result.rules;
    expect([changed.id, changed.version, kept.id, kept.version]).toEqual([made.rules[1].id, '2', made.rules[0].id, '1']);
    expect([made.rules[0].id, made.rules[1].id]).not.toContain(added.id);
    // The migration's configuration sends ref "" for new rules: no ref, nothing matched.
    const empty = await call('PUT', `/zones/${z}/rulesets/${made.id}`, { rules: [{ id: '', ref: '', action: 'block', expression: 'true' }] });
    expect([empty.status, [made.rules[0].id, made.rules[1].id].includes(empty.body.result.rules[0].id)]).toEqual([200, false]);
  });
});

describe('a PUT of what a GET answered is accepted, as for rulesets, jobs and overrides (idempotent PUT)', () => {
  it('page monitoring settings: updated_at is read-only and ignored', async () => {
    const z = zone();
    const got = (await call('GET', `/zones/${z}/page_shield`)).body.result;
    const put = await call('PUT', `/zones/${z}/page_shield`, { ...got, enabled: true });
    expect([put.status, put.body.result.enabled]).toEqual([200, true]);
    expect(Date.parse(put.body.result.updated_at)).toBeGreaterThan(Date.parse(got.updated_at));
    // A body of read-only fields only still changes nothing, and says so.
    const only = await call('PUT', `/zones/${z}/page_shield`, { updated_at: got.updated_at });
    expect([only.status, only.body.errors[0].code]).toEqual([400, ERROR_CODES.settingsInvalid]);
  });
  it('a policy: its own id is accepted, another id is refused (12006, /id)', async () => {
    const z = zone();
    const made = (await call('POST', `/zones/${z}/page_shield/policies`, { action: 'log', expression: 'true', value: "script-src 'self'" })).body.result;
    const put = await call('PUT', `/zones/${z}/page_shield/policies/${made.id}`, { ...made, description: 'again' });
    expect([put.status, put.body.result]).toEqual([200, { ...made, description: 'again' }]);
    const other = await call('PUT', `/zones/${z}/page_shield/policies/${made.id}`, { ...made, id: 'f'.repeat(32) });
    expect([other.status, other.body.errors[0].code, other.body.errors[0].source]).toEqual([400, ERROR_CODES.policyInvalid, { pointer: '/id' }]);
  });
});

describe('an edge job exports http_requests only (the OpenAPI document: "Edge Log Delivery is only supported for the http_requests dataset")', () => {
  it('refuses kind edge with another dataset (1001, /kind), accepts it with http_requests', async () => {
    const z = zone();
    const bad = await call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: 'https://logs.example.com/e', dataset: 'firewall_events', kind: 'edge' });
    expect([bad.status, bad.body.errors[0].code, bad.body.errors[0].source]).toEqual([400, ERROR_CODES.jobInvalid, { pointer: '/kind' }]);
    expect((await call('GET', `/zones/${z}/logexport/jobs`)).body.result).toEqual([]);
    const ok = await call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: 'https://logs.example.com/e', kind: 'edge' });
    expect([ok.status, ok.body.result.kind, ok.body.result.dataset]).toEqual([200, 'edge', 'http_requests']);
  });
});

describe('a job\'s destination_conf and logpull_options hold at most 4096 characters (the OpenAPI document\'s maxLength)', () => {
  const long = `https://logs.example.com/${'a'.repeat(4072)}`; // 4097 characters
  it.each([
    ['destination_conf on create', 'POST', { destination_conf: long }, '/destination_conf'],
    ['logpull_options on create', 'POST', { destination_conf: 'https://logs.example.com/in', logpull_options: `fields=${Array(600).fill('ClientIP').join(',')}` }, '/logpull_options'],
    ['destination_conf on update', 'PUT', { destination_conf: long }, '/destination_conf'],
  ])('%s', async (_name, method, body, pointer) => {
    const z = zone();
    const made = (await call('POST', `/zones/${z}/logexport/jobs`, { destination_conf: 'https://logs.example.com/in' })).body.result;
    const r = await call(method, method === 'POST' ? `/zones/${z}/logexport/jobs` : `/zones/${z}/logexport/jobs/${made.id}`, body);
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.jobInvalid, { pointer }]);
  });
  it('4096 characters are fine', async () => {
    const r = await call('POST', `/zones/${zone()}/logexport/jobs`, { destination_conf: long.slice(0, 4096) });
    expect(r.status).toBe(200);
  });
});

describe('HTTP methods as RFC 9110 has them', () => {
  it('a 405 says which methods the path takes (Allow), and HEAD answers as GET without a body', async () => {
    const z = zone();
    const base = `${emu.url}/zones/${z}/rulesets`;
    const patch = await fetch(base, { method: 'PATCH', headers: { authorization: 'Bearer test-token' } });
    expect([patch.status, ((await patch.json()) as { errors: { code: number }[] }).errors[0].code]).toEqual([405, ERROR_CODES.methodNotAllowed]);
    expect(patch.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    const del = await fetch(`${emu.url}/zones/${z}/page_shield/policies/${'a'.repeat(32)}`, { method: 'POST', headers: { authorization: 'Bearer test-token' } });
    expect([del.status, del.headers.get('allow')?.split(', ').sort()]).toEqual([405, ['DELETE', 'GET', 'HEAD', 'PUT']]);
    const head = await fetch(base, { method: 'HEAD', headers: { authorization: 'Bearer test-token' } });
    const get = await fetch(base, { headers: { authorization: 'Bearer test-token' } });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, get.headers.get('content-type'), '']);
    // A HEAD changes nothing and creates nothing, as a GET.
    const unknown = await fetch(`${emu.url}/zones/${z}/rulesets/${'0'.repeat(32)}`, { method: 'HEAD', headers: { authorization: 'Bearer test-token' } });
    expect(unknown.status).toBe(404);
  });
});

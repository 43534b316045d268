import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, CORE_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

/**
 * An execute rule runs a ruleset the scope can execute: a managed one, one of the scope's own or, in a zone, one
 * of its account's (the lookup the migration uses). Any other id is refused as the emulator refuses a body that
 * names something absent (`rules.N.id` of no rule): 400, 10021, `source.pointer` at the id; nothing changes.
 */
let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let n = 0;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'], fixture: { zones: { 'zone-of-a1': { account: 'a1' }, 'other-zone': { account: 'a2' } }, accounts: { a1: {}, a2: {} } } });
  call = api(emu.url);
});
afterAll(() => emu.close());

const NOWHERE = 'abcdef0123456789abcdef0123456789';
const exec = (id: string, enabled = true) => ({ action: 'execute', expression: 'true', enabled, action_parameters: { id } });
const custom = (rules: unknown[] = []) => ({ name: 'c', kind: 'custom', phase: 'http_request_firewall_managed', rules });
const refused = (r: { status: number; body: any }, pointer: string) =>
  expect([r.status, r.body.success, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, false, ERROR_CODES.validation, { pointer }]);

describe.each([
  { scope: 'zone', prefix: () => `/zones/exec-zone-${++n}` },
  { scope: 'account', prefix: () => `/accounts/exec-account-${++n}` },
])('execute targets at $scope scope', ({ prefix }) => {
  it('refuses an id that names no ruleset on every write, with the pointer to it, and changes nothing', async () => {
    const p = prefix();
    const E = `${p}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    refused(await call('PUT', E, { rules: [exec(MANAGED_RULESET_ID), exec(NOWHERE)] }), '/rules/1/action_parameters/id');
    expect((await call('GET', E)).status).toBe(404);
    refused(await call('POST', `${p}/rulesets`, custom([exec(NOWHERE, false)])), '/rules/0/action_parameters/id');
    const rs = (await call('POST', `${p}/rulesets`, custom([exec(CORE_RULESET_ID)]))).body.result;
    refused(await call('PUT', `${p}/rulesets/${rs.id}`, { rules: [exec(NOWHERE)] }), '/rules/0/action_parameters/id');
    refused(await call('POST', `${p}/rulesets/${rs.id}/rules`, exec(NOWHERE)), '/action_parameters/id');
    refused(await call('PATCH', `${p}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { action: 'execute', action_parameters: { id: NOWHERE } }), '/action_parameters/id');
    const after = (await call('GET', `${p}/rulesets/${rs.id}`)).body.result;
    expect([after.version, after.rules.map((r: any) => r.action_parameters.id)]).toEqual(['1', [CORE_RULESET_ID]]);
  });

  it('accepts the managed rulesets and the scope\'s own', async () => {
    const p = prefix();
    const target = (await call('POST', `${p}/rulesets`, { name: 't', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result;
    const r = await call('PUT', `${p}/rulesets/phases/http_request_firewall_managed/entrypoint`, { rules: [exec(MANAGED_RULESET_ID), exec(CORE_RULESET_ID), exec(target.id)] });
    expect([r.status, r.body.result.rules.length]).toEqual([200, 3]);
  });
});

describe('execute targets across scopes', () => {
  it('lets a zone run its account\'s rulesets, and no other account\'s or zone\'s', async () => {
    const own = (await call('POST', '/accounts/a1/rulesets', { name: 'acct', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result;
    const foreign = (await call('POST', '/accounts/a2/rulesets', { name: 'other', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result;
    const zoneOwned = (await call('POST', '/zones/other-zone/rulesets', { name: 'z', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result;
    const E = '/zones/zone-of-a1/rulesets/phases/http_request_firewall_managed/entrypoint';
    expect((await call('PUT', E, { rules: [exec(own.id)] })).status).toBe(200);
    refused(await call('PUT', E, { rules: [exec(foreign.id)] }), '/rules/0/action_parameters/id');
    refused(await call('PUT', E, { rules: [exec(zoneOwned.id)] }), '/rules/0/action_parameters/id');
    // an account does not run its zones' rulesets
    refused(await call('PUT', '/accounts/a2/rulesets/phases/http_request_firewall_managed/entrypoint', { rules: [exec(zoneOwned.id)] }), '/rules/0/action_parameters/id');
  });
});

describe('execute versions', () => {
  it('refuses a version the executed ruleset does not have, and takes latest or one it has', async () => {
    const p = `/zones/exec-version-${++n}`;
    const E = `${p}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    const withVersion = (id: string, version: string) => ({ action: 'execute', expression: 'true', action_parameters: { id, version } });
    refused(await call('PUT', E, { rules: [withVersion(MANAGED_RULESET_ID, '7')] }), '/rules/0/action_parameters/version');
    const target = (await call('POST', `${p}/rulesets`, { name: 't', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true' }] })).body.result;
    await call('PUT', `${p}/rulesets/${target.id}`, { rules: [{ action: 'log', expression: 'true', description: 'v2' }] });
    for (const version of ['1', '2', 'latest']) expect((await call('PUT', E, { rules: [withVersion(target.id, version)] })).status).toBe(200);
    refused(await call('PUT', E, { rules: [withVersion(target.id, '3')] }), '/rules/0/action_parameters/version');
  });
});

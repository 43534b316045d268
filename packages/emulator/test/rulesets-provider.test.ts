/** Ruleset behaviours as the provider's, from its public threads. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let emu: RunningEmulator;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe("rulesets as the provider's", () => {
  it('refuses a rule PATCH with action_parameters and no action', async () => {
    const rs = await call('POST', '/zones/rp2/rulesets', { name: 'r', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'true' }] });
    const rule = rs.body.result.rules[0].id;
    const bad = await call('PATCH', `/zones/rp2/rulesets/${rs.body.result.id}/rules/${rule}`, { action_parameters: { response: { status_code: 403 } } });
    expect([bad.status, bad.body.errors[0].code, bad.body.errors[0].source?.pointer]).toEqual([400, ERROR_CODES.validation, '/action']);
  });

  it('writes the messages of 20217 and 10003 as the provider does', async () => {
    const phase = 'http_request_firewall_custom';
    await call('POST', '/zones/rp3/rulesets', { name: 'a', kind: 'zone', phase, rules: [] });
    const second = await call('POST', '/zones/rp3/rulesets', { name: 'b', kind: 'zone', phase, rules: [] });
    expect([second.body.errors[0].code, second.body.errors[0].message]).toEqual([20217, `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${phase}`]);
    const none = await call('GET', '/zones/rp3/rulesets/phases/http_ratelimit/entrypoint');
    expect([none.status, none.body.errors[0].code, none.body.errors[0].message]).toEqual([404, 10003, 'could not find entrypoint ruleset in the http_ratelimit phase']);
  });
});

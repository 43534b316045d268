/**
 * The 40 custom fields of a zone (the emulator README, "log_custom_field rules"): the refusal (10033) points at the field that goes over, in the
 * body as sent: `/rules/N/action_parameters/<list>/M` for a whole ruleset, `/action_parameters/<list>/M` for a rule
 * added or changed alone. Before, it carried no pointer, so a client could not say which field to drop.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `cf-limit-${++zn}`;
const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const refusal = (r: { status: number; body: any }) => [r.status, r.body.errors?.[0]?.code, r.body.errors?.[0]?.source?.pointer];

describe('the custom field limit names the field that goes over', () => {
  it('in a whole ruleset: the 41st field in the order sent', async () => {
    const E = `/zones/${zone()}/rulesets/phases/http_log_custom_fields/entrypoint`;
    const r = await call('PUT', E, { rules: [cfRule({ req: names('h', 20), res: names('r', 20) }), cfRule({ cookies: ['c', 'd'] })] });
    expect(refusal(r)).toEqual([400, ERROR_CODES.customFieldLimit, '/rules/1/action_parameters/cookie_fields/0']);
    const created = await call('POST', `/zones/${zone()}/rulesets`, { name: 'cf', kind: 'zone', phase: 'http_log_custom_fields', rules: [cfRule({ req: names('h', 38), cookies: ['a', 'b', 'c'] })] });
    expect(refusal(created)).toEqual([400, ERROR_CODES.customFieldLimit, '/rules/0/action_parameters/cookie_fields/2']);
  });
  it('for a rule added or changed alone: the field of that rule', async () => {
    const z = zone();
    const rs = (await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: names('h', 39) })] })).body.result;
    const add = await call('POST', `/zones/${z}/rulesets/${rs.id}/rules`, cfRule({ res: ['server', 'via'] }));
    expect(refusal(add)).toEqual([400, ERROR_CODES.customFieldLimit, '/action_parameters/response_fields/1']);
    const patch = await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { action_parameters: { request_fields: names('h', 39).map((name) => ({ name })), cookie_fields: [{ name: 'a' }, { name: 'b' }] }, action: 'log_custom_field' });
    expect(refusal(patch)).toEqual([400, ERROR_CODES.customFieldLimit, '/action_parameters/cookie_fields/1']);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).body.result.version).toBe('1');
  });
});

/**
 * Request bodies nested deeper than any API body needs are refused at the door (400, 6007), as fixtures and data
 * files are: such a body used to be stored (a rule's `action_parameters` is left open) and then every answer that
 * held it overflowed the stack (500), so the zone's custom fields ruleset could no longer be read at all.
 * Real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  emu = await startEmulator({ tokens: ['t'] });
  call = api(emu.url, 't');
});
afterAll(async () => {
  await emu.close();
});

/** JSON text of an array nested `depth` levels deep. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const DEEP = 100_000;

function expectRefused(r: { status: number; body: any }) {
  expect(r.status).toBe(400);
  expect(r.body.success).toBe(false);
  expect(r.body.result).toBeNull();
  expect(r.body.errors[0].code).toBe(ERROR_CODES.malformedJson);
}

describe('a body nested too deep', () => {
  it('a custom field rule: refused, and the ruleset stays readable and unchanged', async () => {
    const z = 'deep-cf';
    const made = await call('POST', `/zones/${z}/rulesets`, { name: 'cf', kind: 'zone', phase: 'http_log_custom_fields', rules: [cfRule({ req: ['user-agent'] })] });
    expect(made.status).toBe(200);
    const id = made.body.result.id;
    const rule = JSON.stringify(cfRule({ req: ['x-deep'] })).replace('"action_parameters":{', `"action_parameters":{"extra":${nested(DEEP)},`);
    expectRefused(await call('POST', `/zones/${z}/rulesets/${id}/rules`, rule));
    expectRefused(await call('PUT', `/zones/${z}/rulesets/${id}`, `{"rules":[${rule}]}`));
    expectRefused(await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, `{"rules":[${rule}]}`));
    const after = await call('GET', `/zones/${z}/rulesets/${id}`);
    expect(after.status).toBe(200);
    expect(after.body.result.version).toBe('1');
    expect(after.body.result.rules.map((r: any) => r.action_parameters)).toEqual([{ request_fields: [{ name: 'user-agent' }] }]);
    expect((await call('GET', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`)).status).toBe(200);
  });

  it('page monitoring policies and settings: refused, nothing changes', async () => {
    const z = 'deep-pg';
    for (const spelling of ['page_shield', 'page_guard']) {
      expectRefused(await call('POST', `/zones/${z}/${spelling}/policies`, `{"action":"log","expression":"true","value":"script-src 'self'","description":${nested(DEEP)}}`));
      expectRefused(await call('PUT', `/zones/${z}/${spelling}`, `{"enabled":${nested(DEEP)}}`));
    }
    expect((await call('GET', `/zones/${z}/page_shield/policies`)).body.result).toEqual([]);
    expect((await call('GET', `/zones/${z}/page_shield`)).body.result.enabled).toBe(false);
  });

  it('a body as deep as real ones (a few dozen levels) is still read', async () => {
    const z = 'deep-ok';
    const rule = JSON.stringify(cfRule({ req: ['x-a'] })).replace('"action_parameters":{', `"action_parameters":{"extra":${nested(50)},`);
    const made = await call('POST', `/zones/${z}/rulesets`, `{"name":"cf","kind":"zone","phase":"http_log_custom_fields","rules":[${rule}]}`);
    expect(made.status).toBe(200);
    expect((await call('GET', `/zones/${z}/rulesets/${made.body.result.id}`)).status).toBe(200);
  });
});

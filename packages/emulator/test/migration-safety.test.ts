/**
 * The migration never leaves a zone unprotected: an execute rule naming no ruleset, or a
 * ruleset without rules, is refused before the previous WAF is switched off; the status says what really runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let n = 0;
const zone = () => `mig${++n}`;
const ENTRY = 'rulesets/phases/http_request_firewall_managed/entrypoint';
const execute = (id: string) => ({ action: 'execute', expression: 'true', action_parameters: { id } });

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['t'] });
  call = api(emu.url, 't');
});
afterAll(() => emu.close());

describe('migration safety', { timeout: 90_000 }, () => {
  it('refuses an execute rule naming a ruleset that exists nowhere; the zone keeps its previous WAF', async () => {
    const z = zone();
    const r = await call('PUT', `/zones/${z}/${ENTRY}?waf_migration=pending&phase_two=1`, { rules: [execute('0123456789abcdef0123456789abcdef')] });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.validation, { pointer: '/rules/0/action_parameters/id' }]);
    const status = (await call('GET', `/zones/${z}/waf_migration/status`)).body.result;
    expect([status.migration_state, status.old_waf_status, status.new_waf_status]).toEqual(['start', 'enabled', 'disabled']);
  });

  it('refuses an execute rule running an empty custom ruleset', async () => {
    const z = zone();
    const empty = (await call('POST', `/zones/${z}/rulesets`, { name: 'empty', kind: 'custom', phase: 'http_request_firewall_managed' })).body.result;
    const r = await call('PUT', `/zones/${z}/${ENTRY}?waf_migration=pending&phase_two=1`, { rules: [execute(empty.id)] });
    expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.validation]);
    expect((await call('GET', `/zones/${z}/waf_migration/status`)).body.result.migration_state).toBe('start');
    // With a rule in it, it protects the zone and the migration goes through.
    await call('PUT', `/zones/${z}/rulesets/${empty.id}`, { rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    expect((await call('PUT', `/zones/${z}/${ENTRY}?waf_migration=pending&phase_two=1`, { rules: [execute(empty.id)] })).status).toBe(200);
  });

  it('after the migration, deleting the entry point reports the new rules disabled', async () => {
    const z = zone();
    const entry = (await call('PUT', `/zones/${z}/${ENTRY}?waf_migration=pending&phase_two=1`, { rules: [execute(MANAGED_RULESET_ID)] })).body.result;
    let status = (await call('GET', `/zones/${z}/waf_migration/status`)).body.result;
    expect([status.migration_state, status.old_waf_status, status.new_waf_status, status.execution_order]).toEqual(['migrated', 'disabled', 'enabled', ['new']]);
    expect((await call('DELETE', `/zones/${z}/rulesets/${entry.id}`)).status).toBe(204);
    status = (await call('GET', `/zones/${z}/waf_migration/status`)).body.result;
    expect([status.migration_state, status.old_waf_status, status.new_waf_status, status.execution_order]).toEqual(['migrated', 'disabled', 'disabled', []]);
  });
});

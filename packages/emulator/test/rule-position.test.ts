/**
 * A rule's `position` (the emulator README: exactly one of before, after, index) refused with the pointer to the part at
 * fault: `/position` for its shape, `/position/<key>` for the value of the key given, as `/position/index` for an
 * index out of range already was.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe('rule position errors point at the key at fault', () => {
  it.each([
    ['an index that is not an integer', { index: '1' }, '/position/index'],
    ['a fractional index', { index: 1.5 }, '/position/index'],
    ['an index out of range', { index: 9 }, '/position/index'],
    ['before naming no rule of the ruleset', { before: 'nope' }, '/position/before'],
    ['after naming no rule of the ruleset', { after: 'nope' }, '/position/after'],
    ['before that is not a string', { before: 1 }, '/position/before'],
    ['two keys', { before: '', index: 1 }, '/position'],
    ['no key', {}, '/position'],
    ['not an object', 'first', '/position'],
  ])('%s, on add and on move, changing nothing', async (_name, position, pointer) => {
    const z = `position-${pointer.replace(/\W/g, '')}-${Math.random().toString(16).slice(2)}`;
    const created = await call('POST', `/zones/${z}/rulesets`, { name: 'p', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true' }, { action: 'block', expression: 'true' }] });
    const rs = created.body.result;
    const add = await call('POST', `/zones/${z}/rulesets/${rs.id}/rules`, { action: 'log', expression: 'true', position });
    expect([add.status, add.body.errors?.[0]?.code, add.body.errors?.[0]?.source?.pointer]).toEqual([400, ERROR_CODES.invalidPosition, pointer]);
    const move = await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { position });
    expect([move.status, move.body.errors?.[0]?.code, move.body.errors?.[0]?.source?.pointer]).toEqual([400, ERROR_CODES.invalidPosition, pointer]);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).body.result.version).toBe('1');
  });
  it('a rule placed relative to itself: the key naming it', async () => {
    const z = 'position-self';
    const rs = (await call('POST', `/zones/${z}/rulesets`, { name: 'p', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true' }, { action: 'block', expression: 'true' }] })).body.result;
    const move = await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0].id}`, { position: { after: rs.rules[0].id } });
    expect([move.status, move.body.errors?.[0]?.code, move.body.errors?.[0]?.source?.pointer]).toEqual([400, ERROR_CODES.invalidPosition, '/position/after']);
  });
});

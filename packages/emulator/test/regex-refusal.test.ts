/**
 * reference/rules-language.md §5.3: the API refuses a `matches` regex the engine cannot parse, and a quoted
 * regex whose `"` sits inside an unclosed `[…]` class is unterminated. Over real HTTP, for a ruleset rule and a
 * page monitoring policy; a valid regex (Rust-only syntax included) is still accepted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api } from './http.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let emu: RunningEmulator;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const ruleset = (expression: string) => ({ name: 'n', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression }] });

describe('regex literals over the API', () => {
  it('refuses a ruleset rule whose regex does not parse, at the literal', async () => {
    const r = await call('POST', '/zones/rx1/rulesets', ruleset('ssl and http.host matches "(a"'));
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.invalidExpression, { pointer: '/rules/0/expression' }]);
    expect(r.body.errors[0].message).toContain('Filter parsing error (1:27):');
  });

  it('refuses a regex left open inside a class', async () => {
    const r = await call('POST', '/zones/rx2/rulesets', ruleset('http.host matches "[a"'));
    expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    expect(r.body.errors[0].message).toContain('Filter parsing error (1:19):');
  });

  it('refuses a page monitoring policy with a look-around, accepts Rust-only syntax', async () => {
    const bad = await call('POST', '/zones/rx3/page_guard/policies', { action: 'log', expression: 'http.request.uri.path matches "(?=/a)"', value: "script-src 'self'" });
    expect([bad.status, bad.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    const good = await call('POST', '/zones/rx3/page_guard/policies', { action: 'log', expression: 'http.request.uri.path matches "(?x) ^/a [0-9]+"', value: "script-src 'self'" });
    expect(good.status).toBe(200);
  });
});

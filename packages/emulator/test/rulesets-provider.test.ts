/** Ruleset behaviours as the provider's, from its public threads. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api, own } from './http.js';

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

  it.each([
    ['zone', '/zones/rp4', 'zone'],
    ['account', '/accounts/rp4', 'root'],
  ])('lists the managed rulesets a %s can execute after its own, kind managed, readable by the listed id', async (_scope, base, entry) => {
    await call('POST', `${base}/rulesets`, { name: 'mine', kind: 'custom', phase: 'http_request_firewall_custom' });
    await call('PUT', `${base}/rulesets/phases/http_request_firewall_managed/entrypoint`, { rules: [] });
    const list = await call('GET', `${base}/rulesets`);
    expect(list.status).toBe(200);
    expect(list.body.result.map((r: any) => [r.kind, r.name])).toEqual([
      ['custom', 'mine'],
      [entry, 'default'],
      ['managed', 'Cloudflare Managed Ruleset'],
      ['managed', 'Cloudflare OWASP Core Ruleset'],
    ]);
    const managed = list.body.result.filter((r: any) => r.kind === 'managed');
    // The provider's ids and phase; a list entry has no rules, and the same id reads the ruleset with them.
    expect(managed.map((r: any) => [r.id, r.phase, r.rules])).toEqual([
      ['efb7b8c949ac4650a09736fc376e9aee', 'http_request_firewall_managed', undefined],
      ['4814384a9e5d4991b9815dcfc25d2f1f', 'http_request_firewall_managed', undefined],
    ]);
    for (const m of managed) {
      expect(m).toMatchObject({ version: expect.stringMatching(/^[1-9][0-9]*$/), last_updated: expect.any(String), description: expect.any(String) });
      const got = await call('GET', `${base}/rulesets/${m.id}`);
      expect([got.status, got.body.result.name, got.body.result.version, got.body.result.rules.length > 0]).toEqual([200, m.name, m.version, true]);
      // Listed, but still the provider's: no write reaches it.
      const put = await call('PUT', `${base}/rulesets/${m.id}`, { rules: [] });
      expect([put.status, put.body.errors[0].code]).toEqual([403, ERROR_CODES.managedReadOnly]);
    }
    // What a scope owns stays its own: another scope lists the managed rulesets and nothing else.
    expect(own((await call('GET', `${base}x/rulesets`)).body.result)).toEqual([]);
  });

  // The provider's answer to an Authorization header it cannot read, whatever the path and even where any token
  // would do (an emulator started without tokens); a wrong but well-formed token stays 403 / 10001.
  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer two words', 'Token abc', 'bearer-abc', ''])(
    'answers a malformed Authorization header %j with 400, 6003 and 6111 in its error chain',
    async (header) => {
      const open = await startEmulator({});
      try {
        for (const [url, method] of [
          [`${emu.url}/zones/rp5/rulesets`, 'GET'],
          [`${open.url}/zones/rp5/logpush/jobs`, 'GET'],
          [`${open.url}/zones/rp5/rulesets`, 'POST'],
          [`${emu.url.replace(/\/client\/v4$/, '')}/__emulator/reset`, 'POST'],
        ]) {
          const res = await fetch(url, { method, headers: { authorization: header } });
          const body = (await res.json()) as any;
          expect([res.status, body.success, body.result]).toEqual([400, false, null]);
          expect(body.errors).toEqual([
            { code: 6003, message: 'Invalid request headers', error_chain: [{ code: 6111, message: 'Invalid format for Authorization header' }] },
          ]);
        }
      } finally {
        await open.close();
      }
    },
  );

  it('writes the messages of 20217 and 10003 as the provider does', async () => {
    const phase = 'http_request_firewall_custom';
    await call('POST', '/zones/rp3/rulesets', { name: 'a', kind: 'zone', phase, rules: [] });
    const second = await call('POST', '/zones/rp3/rulesets', { name: 'b', kind: 'zone', phase, rules: [] });
    expect([second.body.errors[0].code, second.body.errors[0].message]).toEqual([20217, `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${phase}`]);
    const none = await call('GET', '/zones/rp3/rulesets/phases/http_ratelimit/entrypoint');
    expect([none.status, none.body.errors[0].code, none.body.errors[0].message]).toEqual([404, 10003, 'could not find entrypoint ruleset in the http_ratelimit phase']);
  });
});

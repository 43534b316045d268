import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, CORE_RULESET_ID, PHASES, ACTIONS, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let n = 0;

beforeAll(async () => {
  emu = await startEmulator({ tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

// Every rule of the README's "Behaviour" for rulesets, at both scopes: the same paths under zones/<id> and accounts/<id>.
const SCOPES = [
  { name: 'zone', prefix: () => `/zones/sem-zone-${++n}`, entry: 'zone', other: 'root' },
  { name: 'account', prefix: () => `/accounts/sem-account-${++n}`, entry: 'root', other: 'zone' },
] as const;

const logRule = (description: string) => ({ action: 'log', expression: 'http.host eq "example.com"', description });
const custom = { name: 'c', kind: 'custom', phase: 'http_request_firewall_custom' };

describe.each(SCOPES)('rulesets at $name scope', ({ prefix, entry, other }) => {
  it('keeps one entry point per phase: a second one is refused with 20217 and pointer /kind', async () => {
    const p = prefix();
    const body = { name: 'e', kind: entry, phase: 'http_request_firewall_custom' };
    expect((await call('POST', `${p}/rulesets`, body)).status).toBe(200);
    const again = await call('POST', `${p}/rulesets`, body);
    expect([again.status, again.body.success, again.body.errors[0].code, again.body.errors[0].source]).toEqual([400, false, 20217, { pointer: '/kind' }]);
    // Another phase, or a custom ruleset of the same phase, is fine.
    expect((await call('POST', `${p}/rulesets`, { ...body, phase: 'http_request_late_transform' })).status).toBe(200);
    expect((await call('POST', `${p}/rulesets`, { ...body, kind: 'custom' })).status).toBe(200);
    // The other scope's entry point kind does not belong here.
    const wrong = await call('POST', `${p}/rulesets`, { ...body, kind: other, phase: 'http_ratelimit' });
    expect([wrong.status, wrong.body.errors[0].code]).toEqual([400, ERROR_CODES.kindScope]);
    // The article agrees with the scope ("an account", "a zone"): the one wording check, it was "a account".
    expect(wrong.body.errors[0].message).not.toMatch(/\ba account\b|\ban zone\b/);
  });

  it('creates the entry point on PUT, reads it and its versions by phase', async () => {
    const p = prefix();
    const E = `${p}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    expect((await call('GET', `${E}/versions`)).body.result).toEqual([]);
    const none = await call('GET', E);
    expect([none.status, none.body.errors[0].code]).toEqual([404, 10003]);
    const first = await call('PUT', E, { rules: [logRule('a')] });
    expect(first.body.result).toMatchObject({ kind: entry, phase: 'http_request_firewall_custom', version: '1' });
    await call('PUT', E, { rules: [logRule('b')] });
    expect((await call('GET', `${E}/versions`)).body.result.map((v: any) => v.version)).toEqual(['2', '1']);
    expect((await call('GET', `${E}/versions/1`)).body.result.rules.map((r: any) => r.description)).toEqual(['a']);
    expect((await call('GET', E)).body.result.rules.map((r: any) => r.description)).toEqual(['b']);
  });

  it('keeps name and kind (and phase) immutable', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, custom)).body.result;
    for (const [field, value] of [['name', 'other'], ['kind', 'zone'], ['phase', 'http_ratelimit']]) {
      const r = await call('PUT', `${p}/rulesets/${rs.id}`, { rules: [], [field]: value });
      expect([field, r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([field, 400, ERROR_CODES.immutableProperty, { pointer: `/${field}` }]);
    }
    // The same values, and a new description, are accepted.
    const ok = await call('PUT', `${p}/rulesets/${rs.id}`, { rules: [], name: 'c', kind: 'custom', description: 'new' });
    expect(ok.body.result).toMatchObject({ name: 'c', description: 'new', version: '2' });
  });

  it('reads managed rulesets and their rules by tag, and refuses every write to them', async () => {
    const p = prefix();
    const managed = (await call('GET', `${p}/rulesets/${CORE_RULESET_ID}`)).body.result;
    expect(managed).toMatchObject({ kind: 'managed', phase: 'http_request_firewall_managed', version: '1' });
    const tagged = (await call('GET', `${p}/rulesets/${CORE_RULESET_ID}/versions/1/by_tag/paranoia-level-2`)).body.result;
    expect(tagged.rules.length).toBeGreaterThan(0);
    expect(tagged.rules.every((r: any) => r.categories.includes('paranoia-level-2'))).toBe(true);
    expect(tagged.rules.length).toBeLessThan(managed.rules.length);
    const M = `${p}/rulesets/${MANAGED_RULESET_ID}`;
    const ruleId = (await call('GET', M)).body.result.rules[0].id;
    const writes: [string, string, unknown?][] = [
      ['PUT', M, { rules: [] }],
      ['DELETE', M],
      ['POST', `${M}/rules`, logRule('x')],
      ['PATCH', `${M}/rules/${ruleId}`, { enabled: false }],
      ['DELETE', `${M}/rules/${ruleId}`],
    ];
    for (const [method, path, body] of writes) {
      const r = await call(method, path, body);
      expect([method, r.status, r.body.errors[0].code]).toEqual([method, 403, ERROR_CODES.managedReadOnly]);
    }
    const create = await call('POST', `${p}/rulesets`, { ...custom, kind: 'managed' });
    expect([create.status, create.body.errors[0].code]).toEqual([403, ERROR_CODES.managedReadOnly]);
    expect((await call('GET', M)).body.result.version).toBe('1');
  });

  it('numbers versions "1", "2", … on every change and never reuses a deleted number', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, custom)).body.result;
    const R = `${p}/rulesets/${rs.id}`;
    const added = (await call('POST', `${R}/rules`, logRule('a'))).body.result;
    expect(added.version).toBe('2');
    const ruleId = added.rules[0].id;
    expect((await call('PATCH', `${R}/rules/${ruleId}`, { description: 'b' })).body.result.version).toBe('3');
    expect((await call('POST', `${R}/rules`, logRule('c'))).body.result.version).toBe('4');
    expect((await call('PATCH', `${R}/rules/${ruleId}`, { position: { index: 2 } })).body.result.version).toBe('5');
    expect((await call('DELETE', `${R}/rules/${ruleId}`)).body.result.version).toBe('6');
    // The latest version, run by nothing, can go: the one before becomes current again.
    const del = await call('DELETE', `${R}/versions/6`);
    expect([del.status, del.body]).toEqual([204, undefined]);
    expect((await call('GET', R)).body.result.version).toBe('5');
    const gone = await call('DELETE', `${R}/versions/4`);
    expect([gone.status, gone.body]).toEqual([204, undefined]);
    expect((await call('GET', `${R}/versions`)).body.result.map((v: any) => v.version)).toEqual(['5', '3', '2', '1']);
    expect((await call('PUT', R, { rules: [] })).body.result.version).toBe('7');
  });

  it('answers 200 with the whole ruleset for rule add, update and delete, and 204 for ruleset and version delete', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, custom)).body.result;
    const R = `${p}/rulesets/${rs.id}`;
    const add = await call('POST', `${R}/rules`, logRule('a'));
    expect([add.status, add.body.result.id, add.body.result.name]).toEqual([200, rs.id, 'c']);
    const upd = await call('PATCH', `${R}/rules/${add.body.result.rules[0].id}`, { enabled: false });
    expect([upd.status, upd.body.result.rules[0].enabled]).toEqual([200, false]);
    const del = await call('DELETE', `${R}/rules/${add.body.result.rules[0].id}`);
    expect([del.status, del.body.result.rules]).toEqual([200, []]);
    const dv = await call('DELETE', `${R}/versions/1`);
    expect([dv.status, dv.body]).toEqual([204, undefined]);
    const drs = await call('DELETE', R);
    expect([drs.status, drs.body, drs.headers.get('content-length')]).toEqual([204, undefined, null]);
  });

  it('places rules with exactly one of before / after / index, and refuses the rest', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, { ...custom, rules: [logRule('a'), logRule('b')] })).body.result;
    const R = `${p}/rulesets/${rs.id}`;
    const [a, b] = rs.rules.map((r: any) => r.id);
    const order = (res: any) => res.body.result.rules.map((r: any) => r.description);
    expect(order(await call('POST', `${R}/rules`, { ...logRule('first'), position: { before: '' } }))).toEqual(['first', 'a', 'b']);
    expect(order(await call('POST', `${R}/rules`, { ...logRule('last'), position: { after: '' } }))).toEqual(['first', 'a', 'b', 'last']);
    expect(order(await call('POST', `${R}/rules`, { ...logRule('mid'), position: { after: a } }))).toEqual(['first', 'a', 'mid', 'b', 'last']);
    expect(order(await call('POST', `${R}/rules`, { ...logRule('i'), position: { index: 6 } }))).toEqual(['first', 'a', 'mid', 'b', 'last', 'i']);
    expect(order(await call('PATCH', `${R}/rules/${b}`, { position: { before: a } }))).toEqual(['first', 'b', 'a', 'mid', 'last', 'i']);
    const bad = [{ index: 0 }, { index: 8 }, { index: -1 }, { index: 1.5 }, { before: a, after: a }, { index: 1, before: a }, {}, { above: a }, { before: 'nope' }, 'x'];
    for (const position of bad) {
      const r = await call('POST', `${R}/rules`, { ...logRule('x'), position });
      expect([JSON.stringify(position), r.status, r.body.errors[0].code]).toEqual([JSON.stringify(position), 400, ERROR_CODES.invalidPosition]);
    }
    const move = await call('PATCH', `${R}/rules/${b}`, { position: { index: 7 } });
    expect([move.status, move.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidPosition]);
    expect((await call('GET', R)).body.result.rules).toHaveLength(6);
  });

  it('knows the actions and phases of the contract, and the parameters each action needs', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, custom)).body.result;
    const add = (rule: object) => call('POST', `${p}/rulesets/${rs.id}/rules`, rule);
    const unknown = await add({ action: 'allow', expression: 'true' });
    expect([unknown.status, unknown.body.errors[0].code, unknown.body.errors[0].source]).toEqual([400, ERROR_CODES.unknownAction, { pointer: '/action' }]);
    for (const [action, params] of [['execute', { id: MANAGED_RULESET_ID }], ['redirect', { from_value: { target_url: { value: 'https://example.com' } } }], ['skip', { ruleset: 'current' }], ['score', { increment: 3 }], ['set_config', { bic: true }], ['block', undefined]] as const) {
      const missing = await add({ action, expression: 'true' });
      if (ACTIONS[action].anyOf || ACTIONS[action].nonEmpty) expect([action, missing.status, missing.body.errors[0].code]).toEqual([action, 400, 20113]);
      else expect([action, missing.status]).toEqual([action, 200]);
      expect([action, (await add({ action, expression: 'true', action_parameters: params })).status]).toEqual([action, 200]);
    }
    const logging = await add({ action: 'block', expression: 'true', logging: { enabled: false } });
    expect([logging.status, logging.body.errors[0].code, logging.body.errors[0].source]).toEqual([400, 20018, { pointer: '/logging' }]);
    const skip = await add({ action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' }, logging: { enabled: false } });
    expect(skip.body.result.rules.at(-1).logging).toEqual({ enabled: false });
    const inPut = await call('PUT', `${p}/rulesets/${rs.id}`, { rules: [logRule('a'), { action: 'log', expression: 'true', logging: { enabled: true } }] });
    expect([inPut.body.errors[0].code, inPut.body.errors[0].source]).toEqual([20018, { pointer: '/rules/1/logging' }]);
    const phase = await call('POST', `${p}/rulesets`, { ...custom, phase: 'http_request_nope' });
    expect([phase.status, phase.body.errors[0].code, phase.body.errors[0].source]).toEqual([400, ERROR_CODES.unknownPhase, { pointer: '/phase' }]);
    // the rules language's one phase list: the API's 24, the documentation's other HTTP phases, select_configuration
    expect(PHASES).toHaveLength(29);
    expect(Object.keys(ACTIONS)).toHaveLength(21);
  });

  it('refuses to delete a ruleset, or a version, that an execute rule runs', async () => {
    const p = prefix();
    const target = (await call('POST', `${p}/rulesets`, { ...custom, rules: [logRule('a')] })).body.result;
    await call('PUT', `${p}/rulesets/${target.id}`, { rules: [logRule('b')] });
    await call('PUT', `${p}/rulesets/${target.id}`, { rules: [logRule('c')] });
    const runner = (
      await call('PUT', `${p}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
        rules: [
          { action: 'execute', expression: 'true', action_parameters: { id: target.id } },
          { action: 'execute', expression: 'true', action_parameters: { id: target.id, version: '1' } },
        ],
      })
    ).body.result;
    const del = await call('DELETE', `${p}/rulesets/${target.id}`);
    expect([del.status, del.body.errors[0].code]).toEqual([409, ERROR_CODES.referenced]);
    const v1 = await call('DELETE', `${p}/rulesets/${target.id}/versions/1`);
    expect([v1.status, v1.body.errors[0].code]).toEqual([409, ERROR_CODES.referenced]);
    const latest = await call('DELETE', `${p}/rulesets/${target.id}/versions/3`);
    expect([latest.status, latest.body.errors[0].code]).toEqual([409, ERROR_CODES.referenced]);
    expect((await call('DELETE', `${p}/rulesets/${target.id}/versions/2`)).status).toBe(204);
    // Once nothing runs it, its latest version and then the ruleset go; the only version left cannot go alone.
    await call('PUT', `${p}/rulesets/${runner.id}`, { rules: [] });
    expect((await call('DELETE', `${p}/rulesets/${target.id}/versions/3`)).status).toBe(204);
    expect((await call('GET', `${p}/rulesets/${target.id}`)).body.result).toMatchObject({ version: '1', rules: [{ description: 'a' }] });
    const only = await call('DELETE', `${p}/rulesets/${target.id}/versions/1`);
    expect([only.status, only.body.errors[0].code]).toEqual([409, ERROR_CODES.latestVersion]);
    expect((await call('DELETE', `${p}/rulesets/${target.id}`)).status).toBe(204);
  });

  it('keeps the custom-field rules: lower-case headers, 40 fields, expression true', async () => {
    const p = prefix();
    const E = `${p}/rulesets/phases/http_log_custom_fields/entrypoint`;
    expect((await call('PUT', E, { rules: [cfRule({ req: ['User-Agent'] })] })).body.errors[0].code).toBe(ERROR_CODES.customFieldName);
    expect((await call('PUT', E, { rules: [cfRule({ req: ['a'] }, { expression: 'http.host eq "x"' })] })).body.errors[0].code).toBe(ERROR_CODES.customFieldExpression);
    const forty = Array.from({ length: 41 }, (_, i) => `h${i}`);
    expect((await call('PUT', E, { rules: [cfRule({ req: forty })] })).body.errors[0].code).toBe(ERROR_CODES.customFieldLimit);
    expect((await call('PUT', E, { rules: [cfRule({ req: forty.slice(1) })] })).status).toBe(200);
  });

  it('loses no rule when many clients add rules at once', async () => {
    const p = prefix();
    const rs = (await call('POST', `${p}/rulesets`, custom)).body.result;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => call('POST', `${p}/rulesets/${rs.id}/rules`, logRule(`w${i}`))));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    const final = (await call('GET', `${p}/rulesets/${rs.id}`)).body.result;
    expect(final.rules.map((r: any) => r.description).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `w${i}`).sort());
    expect(final.version).toBe('26');
    // Each acknowledged add saw its own rule in the answer: every version number answered once.
    expect(new Set(answers.map((a) => a.body.result.version)).size).toBe(25);
  });
});

it('refuses malformed account ids', async () => {
  const r = await call('GET', '/accounts/bad%20id/rulesets');
  expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidAccount]);
});

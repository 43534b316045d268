import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule, own, MANAGED_LISTED } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
const Z = '023e105f4ecef8ad9ca31a8372d0c353';
let zn = 0;
const zone = () => `zone${++zn}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

describe('envelope and routing', () => {
  it('answers a list with the envelope and result_info', async () => {
    const r = await call('GET', `/zones/${Z}/rulesets`);
    expect(r.status).toBe(200);
    // A scope with nothing of its own lists just the managed rulesets it can execute.
    expect(r.body).toMatchObject({ success: true, errors: [], messages: [], result_info: { per_page: 20, count: MANAGED_LISTED.length } });
    expect(Object.keys(r.body).sort()).toEqual(['errors', 'messages', 'result', 'result_info', 'success']);
    expect(r.body.result).toMatchObject(MANAGED_LISTED);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
  });
  it('answers unknown paths with 404 and methods with 405, in the envelope', async () => {
    const a = await call('GET', `/zones/${Z}/nothing`);
    expect(a.status).toBe(404);
    expect(a.body.success).toBe(false);
    expect(a.body.errors[0].code).toBe(ERROR_CODES.noRoute);
    const b = await call('PATCH', `/zones/${Z}/rulesets`, {});
    expect(b.status).toBe(405);
    expect(b.body.errors[0].code).toBe(ERROR_CODES.methodNotAllowed);
    const c = await fetch(emu.url.replace('/client/v4', '/other'));
    expect(c.status).toBe(404);
  });
  it('rejects malformed JSON, a body without JSON content type, and bad zone ids', async () => {
    const a = await call('POST', `/zones/${Z}/rulesets`, '{"name":');
    expect([a.status, a.body.errors[0].code]).toEqual([400, ERROR_CODES.malformedJson]);
    const b = await fetch(`${emu.url}/zones/${Z}/rulesets`, { method: 'POST', headers: { authorization: 'Bearer test-token', 'content-type': 'text/plain' }, body: '{}' });
    expect(b.status).toBe(415);
    const c = await call('GET', `/zones/bad%20zone/rulesets`);
    expect([c.status, c.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidZone]);
  });
});

describe('authentication', () => {
  it('answers 401 without credentials and 403 with a wrong token', async () => {
    const a = await fetch(`${emu.url}/zones/${Z}/rulesets`);
    expect(a.status).toBe(401);
    expect(((await a.json()) as any).errors[0].code).toBe(ERROR_CODES.missingCredentials);
    const b = await api(emu.url, 'wrong')('GET', `/zones/${Z}/rulesets`);
    expect([b.status, b.body.errors[0].code, b.body.success]).toEqual([403, ERROR_CODES.invalidCredentials, false]);
    // A malformed header is not a wrong credential: the provider's 400 / 6003 (rulesets-provider.test.ts).
    const c = await fetch(`${emu.url}/zones/${Z}/rulesets`, { headers: { authorization: 'Basic abc' } });
    expect([c.status, ((await c.json()) as any).errors[0].code]).toEqual([400, ERROR_CODES.invalidHeaders]);
  });
  it('names the scheme in WWW-Authenticate on every 401 (HTTP requires it), on either spelling of a path', async () => {
    for (const [path, headers] of [
      [`/zones/${Z}/rulesets`, {}],
      [`/zones/${Z}/page_shield`, {}],
      [`/zones/${Z}/logexport/jobs`, { 'x-auth-email': 'ops@example.com' }],
    ] as const) {
      const r = await fetch(`${emu.url}${path}`, { headers });
      expect([r.status, r.headers.get('www-authenticate'), ((await r.json()) as any).errors[0].code], path).toEqual([401, 'Bearer', ERROR_CODES.missingCredentials]);
    }
  });
  it('accepts e-mail and key when configured, and refuses a wrong key or a lone e-mail', async () => {
    const e2 = await startEmulator({ email: 'ops@example.com', key: 'k1' });
    try {
      const get = (h: Record<string, string>) => fetch(`${e2.url}/zones/${Z}/rulesets`, { headers: h });
      expect((await get({ 'x-auth-email': 'ops@example.com', 'x-auth-key': 'k1' })).status).toBe(200);
      expect((await get({ 'x-auth-email': 'ops@example.com', 'x-auth-key': 'k2' })).status).toBe(403);
      expect((await get({ 'x-auth-email': 'ops@example.com' })).status).toBe(401);
      expect((await get({ authorization: 'Bearer anything' })).status).toBe(403);
    } finally {
      await e2.close();
    }
  });
});

describe('rulesets', () => {
  it('creates, gets, lists, updates and deletes a ruleset, with versions that increase', async () => {
    const z = zone();
    const created = await call('POST', `/zones/${z}/rulesets`, { name: 'cf', kind: 'zone', description: 'd', phase: 'http_log_custom_fields' });
    expect(created.status).toBe(200);
    const rs = created.body.result;
    expect(rs).toMatchObject({ name: 'cf', kind: 'zone', phase: 'http_log_custom_fields', version: '1', rules: [] });
    expect(rs.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.isNaN(Date.parse(rs.last_updated))).toBe(false);

    const put = await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [cfRule({ req: ['user-agent'], cookies: ['Session'] })] });
    expect(put.status).toBe(200);
    expect(put.body.result.version).toBe('2');
    expect(put.body.result.rules).toHaveLength(1);
    const rule = put.body.result.rules[0];
    expect(rule).toMatchObject({ action: 'log_custom_field', expression: 'true', version: '2', enabled: true });
    expect(rule.id).toMatch(/^[0-9a-f]{32}$/);

    // PUT replaces all rules: a second PUT with another rule drops the first.
    const put2 = await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [cfRule({ res: ['server'] })] });
    expect(put2.body.result.version).toBe('3');
    expect(put2.body.result.rules.map((r: any) => r.action_parameters)).toEqual([{ response_fields: [{ name: 'server' }] }]);

    // A rule sent back with its id and unchanged keeps its id and version.
    const keep = put2.body.result.rules[0];
    const put3 = await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [{ id: keep.id, action: keep.action, expression: keep.expression, description: keep.description, action_parameters: keep.action_parameters }, cfRule({ cookies: ['a'] })] });
    expect(put3.body.result.version).toBe('4');
    expect(put3.body.result.rules[0]).toMatchObject({ id: keep.id, version: '3' });
    expect(put3.body.result.rules[1].version).toBe('4');

    const got = await call('GET', `/zones/${z}/rulesets/${rs.id}`);
    expect(got.body.result).toEqual(put3.body.result);

    const list = own((await call('GET', `/zones/${z}/rulesets`)).body.result);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: rs.id, version: '4', phase: 'http_log_custom_fields' });
    expect(list[0].rules).toBeUndefined();

    const del = await call('DELETE', `/zones/${z}/rulesets/${rs.id}`);
    expect([del.status, del.body]).toEqual([204, undefined]);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).status).toBe(404);
    expect((await call('DELETE', `/zones/${z}/rulesets/${rs.id}`)).body.errors[0].code).toBe(ERROR_CODES.rulesetNotFound);
  });

  it('keeps at most one zone ruleset per phase', async () => {
    const z = zone();
    const body = { name: 'a', kind: 'zone', phase: 'http_log_custom_fields' };
    expect((await call('POST', `/zones/${z}/rulesets`, body)).status).toBe(200);
    const again = await call('POST', `/zones/${z}/rulesets`, body);
    expect([again.status, again.body.errors[0].code, again.body.errors[0].source]).toEqual([400, 20217, { pointer: '/kind' }]);
    // Another zone is independent.
    expect((await call('POST', `/zones/${zone()}/rulesets`, body)).status).toBe(200);
    // A custom ruleset of the same phase is not an entry point.
    expect((await call('POST', `/zones/${z}/rulesets`, { ...body, kind: 'custom' })).status).toBe(200);
  });

  it('validates ruleset bodies', async () => {
    const z = zone();
    const bad = [
      { kind: 'zone', phase: 'http_request_firewall_custom' },
      { name: 'x', kind: 'nope', phase: 'http_request_firewall_custom' },
      { name: 'x', kind: 'zone' },
      { name: 'x', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'log' }] },
    ];
    for (const b of bad) {
      const r = await call('POST', `/zones/${z}/rulesets`, b);
      expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.validation]);
    }
    const created = (await call('POST', `/zones/${z}/rulesets`, { name: 'x', kind: 'zone', phase: 'http_request_firewall_custom' })).body.result;
    expect((await call('PUT', `/zones/${z}/rulesets/${created.id}`, { name: 'y' })).body.errors[0].code).toBe(ERROR_CODES.validation);
    expect((await call('PUT', `/zones/${z}/rulesets/${created.id}`, { rules: [], phase: 'q' })).status).toBe(400);
    expect((await call('PUT', `/zones/${z}/rulesets/${created.id}`, { rules: [{ id: 'nope', action: 'log', expression: 'true' }] })).status).toBe(400);
    expect((await call('GET', `/zones/${z}/rulesets/${created.id}`)).body.result.version).toBe('1');
  });

  it('addresses the phase entry point by name', async () => {
    const z = zone();
    const none = await call('GET', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`);
    expect([none.status, none.body.errors[0].code]).toEqual([404, ERROR_CODES.entrypointNotFound]);
    const put = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: ['accept'] })] });
    expect(put.status).toBe(200);
    expect(put.body.result).toMatchObject({ kind: 'zone', phase: 'http_log_custom_fields', version: '1' });
    const put2 = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint?waf_migration=pending&phase_two=1`, { rules: [] });
    expect(put2.body.result).toMatchObject({ id: put.body.result.id, version: '2', rules: [] });
    const got = await call('GET', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`);
    expect(got.body.result.id).toBe(put.body.result.id);
    const list = await call('GET', `/zones/${z}/rulesets`);
    expect(own(list.body.result)).toHaveLength(1);
  });
});

describe('versions', () => {
  it('lists, views and deletes versions; the only one cannot be deleted alone', async () => {
    const z = zone();
    const rs = (await call('POST', `/zones/${z}/rulesets`, { name: 'v', kind: 'zone', phase: 'http_log_custom_fields', rules: [cfRule({ req: ['a'] })] })).body.result;
    await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [cfRule({ req: ['b'] })] });
    await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [cfRule({ req: ['c'] })] });
    const list = await call('GET', `/zones/${z}/rulesets/${rs.id}/versions`);
    expect(list.body.result.map((v: any) => v.version)).toEqual(['3', '2', '1']);
    expect(list.body.result_info).toBeUndefined();
    const v1 = await call('GET', `/zones/${z}/rulesets/${rs.id}/versions/1`);
    expect(v1.body.result.rules[0].action_parameters).toEqual({ request_fields: [{ name: 'a' }] });
    expect((await call('DELETE', `/zones/${z}/rulesets/${rs.id}/versions/2`)).status).toBe(204);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}/versions/2`)).body.errors[0].code).toBe(ERROR_CODES.versionNotFound);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}/versions`)).body.result.map((v: any) => v.version)).toEqual(['3', '1']);
    // The latest goes too (nothing runs it): version 1 is current again, and being the only one it stays.
    expect((await call('DELETE', `/zones/${z}/rulesets/${rs.id}/versions/3`)).status).toBe(204);
    expect((await call('GET', `/zones/${z}/rulesets/${rs.id}`)).body.result.rules[0].action_parameters).toEqual({ request_fields: [{ name: 'a' }] });
    const only = await call('DELETE', `/zones/${z}/rulesets/${rs.id}/versions/1`);
    expect([only.status, only.body.errors[0].code]).toEqual([409, ERROR_CODES.latestVersion]);
    // Numbers are never reused after a deletion.
    expect((await call('PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [] })).body.result.version).toBe('4');
  });
});

describe('rules', () => {
  it('adds rules at a position, patches including order, and deletes', async () => {
    const z = zone();
    const rs = (await call('POST', `/zones/${z}/rulesets`, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom' })).body.result;
    const add = (body: object) => call('POST', `/zones/${z}/rulesets/${rs.id}/rules`, body);
    const rule = (d: string) => ({ action: 'log', expression: 'http.host eq "x"', description: d });
    const a = (await add(rule('a'))).body.result;
    expect(a.version).toBe('2');
    const idA = a.rules[0].id;
    const b = (await add({ ...rule('b'), position: { before: idA } })).body.result;
    expect(b.rules.map((r: any) => r.description)).toEqual(['b', 'a']);
    const c = (await add({ ...rule('c'), position: { after: b.rules[0].id } })).body.result;
    expect(c.rules.map((r: any) => r.description)).toEqual(['b', 'c', 'a']);
    const d = (await add({ ...rule('d'), position: { index: 1 } })).body.result;
    expect(d.rules.map((r: any) => r.description)).toEqual(['d', 'b', 'c', 'a']);
    expect((await add({ ...rule('e'), position: { before: 'nope' } })).body.errors[0].code).toBe(ERROR_CODES.invalidPosition);
    expect((await add({ ...rule('e'), position: { index: 9 } })).body.errors[0].code).toBe(ERROR_CODES.invalidPosition);

    const patched = await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${idA}`, { description: 'A', position: { index: 1 } });
    expect(patched.status).toBe(200);
    expect(patched.body.result.rules.map((r: any) => r.description)).toEqual(['A', 'd', 'b', 'c']);
    expect(patched.body.result.rules[0]).toMatchObject({ id: idA, version: patched.body.result.version, expression: 'http.host eq "x"' });
    const moved = await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${idA}`, { position: { after: d.rules[2].id } });
    expect(moved.body.result.rules.map((r: any) => r.description)).toEqual(['d', 'b', 'c', 'A']);
    expect((await call('PATCH', `/zones/${z}/rulesets/${rs.id}/rules/nope`, { description: 'x' })).status).toBe(404);

    const del = await call('DELETE', `/zones/${z}/rulesets/${rs.id}/rules/${idA}`);
    expect(del.body.result.rules.map((r: any) => r.description)).toEqual(['d', 'b', 'c']);
    expect((await call('DELETE', `/zones/${z}/rulesets/${rs.id}/rules/${idA}`)).body.errors[0].code).toBe(ERROR_CODES.ruleNotFound);
  });
});

describe('log_custom_field rules', () => {
  async function entry(rules: unknown[]) {
    return call('PUT', `/zones/${zone()}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules });
  }
  it('accepts a valid rule with cookie names as given', async () => {
    const r = await entry([cfRule({ req: ['x-request-id'], res: ['cf-cache-status'], cookies: ['SessionID', '__Host-x'] })]);
    expect(r.status).toBe(200);
    expect(r.body.result.rules[0].action_parameters.cookie_fields).toEqual([{ name: 'SessionID' }, { name: '__Host-x' }]);
  });
  it.each([
    ['expression not true', cfRule({ req: ['a'] }, { expression: 'http.host eq "x"' }), ERROR_CODES.customFieldExpression],
    ['no array', { action: 'log_custom_field', expression: 'true', action_parameters: {} }, ERROR_CODES.customFieldEmpty],
    ['no parameters', { action: 'log_custom_field', expression: 'true' }, ERROR_CODES.customFieldEmpty],
    ['empty arrays', cfRule({ req: [], cookies: [] }), ERROR_CODES.customFieldEmpty],
    ['upper-case request header', cfRule({ req: ['User-Agent'] }), ERROR_CODES.customFieldName],
    ['upper-case response header', cfRule({ res: ['Server'] }), ERROR_CODES.customFieldName],
    ['header with a space', cfRule({ req: ['a b'] }), ERROR_CODES.customFieldName],
    ['duplicate', cfRule({ cookies: ['a', 'a'] }), ERROR_CODES.customFieldDuplicate],
    ['41 fields', cfRule({ req: Array.from({ length: 20 }, (_, i) => `h${i}`), res: Array.from({ length: 20 }, (_, i) => `r${i}`), cookies: ['c'] }), ERROR_CODES.customFieldLimit],
  ])('rejects %s', async (_name, rule, code) => {
    const r = await entry([rule]);
    expect([r.status, r.body.success, r.body.errors[0].code]).toEqual([400, false, code]);
  });
  it('counts the 40 across all rules of the zone, and a rejected change keeps the old version', async () => {
    const z = zone();
    const twenty = (p: string) => Array.from({ length: 20 }, (_, i) => `${p}${i}`);
    const ok = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: twenty('a') }), cfRule({ cookies: twenty('c') })] });
    expect(ok.status).toBe(200);
    const over = await call('POST', `/zones/${z}/rulesets/${ok.body.result.id}/rules`, cfRule({ res: ['one-more'] }));
    expect([over.status, over.body.errors[0].code]).toEqual([400, ERROR_CODES.customFieldLimit]);
    const got = await call('GET', `/zones/${z}/rulesets/${ok.body.result.id}`);
    expect(got.body.result.version).toBe('1');
    expect(got.body.result.rules).toHaveLength(2);
  });
  it('validates execute rules', async () => {
    const r = await call('PUT', `/zones/${zone()}/rulesets/phases/http_request_firewall_managed/entrypoint`, { rules: [{ action: 'execute', expression: 'true' }] });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, 20113, { pointer: '/rules/0/action_parameters' }]);
    const ok = await call('PUT', `/zones/${zone()}/rulesets/phases/http_request_firewall_managed/entrypoint`, {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee', overrides: { rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log', enabled: true }] } } }],
    });
    expect(ok.status).toBe(200);
  });
});

describe('paging', () => {
  it('pages the ruleset list with cursor and per_page, the cursor in both forms', async () => {
    const z = zone();
    for (let i = 0; i < 5; i++) await call('POST', `/zones/${z}/rulesets`, { name: `r${i}`, kind: 'custom', phase: 'http_request_firewall_custom' });
    const p1 = await call('GET', `/zones/${z}/rulesets?per_page=2`);
    expect(p1.body.result.map((r: any) => r.name)).toEqual(['r0', 'r1']);
    const cursor = p1.body.result_info.cursors.after;
    expect(p1.body.result_info).toEqual({ per_page: 2, count: 2, cursor, cursors: { after: cursor } });
    const p2 = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${cursor}`);
    expect(p2.body.result.map((r: any) => r.name)).toEqual(['r2', 'r3']);
    // The managed rulesets come after the zone's own, paged like them.
    const p3 = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p2.body.result_info.cursor}`);
    expect(p3.body.result.map((r: any) => r.name)).toEqual(['r4', MANAGED_LISTED[0].name]);
    const p4 = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p3.body.result_info.cursor}`);
    expect(p4.body.result.map((r: any) => r.name)).toEqual([MANAGED_LISTED[1].name]);
    expect(p4.body.result_info).toEqual({ per_page: 2, count: 1 });
    const bad = await call('GET', `/zones/${z}/rulesets?cursor=bm9wZQ`);
    expect([bad.status, bad.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidCursor]);
    for (const q of ['per_page=0', 'per_page=abc', 'per_page=5000']) {
      const r = await call('GET', `/zones/${z}/rulesets?${q}`);
      expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidPaging]);
    }
  });
  it('a cursor stays valid when the last ruleset of its page is deleted', async () => {
    const z = zone();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call('POST', `/zones/${z}/rulesets`, { name: `r${i}`, kind: 'custom', phase: 'http_request_firewall_custom' })).body.result.id);
    const p1 = await call('GET', `/zones/${z}/rulesets?per_page=2`);
    expect((await call('DELETE', `/zones/${z}/rulesets/${ids[1]}`)).status).toBe(204);
    const p2 = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p1.body.result_info.cursor}`);
    expect([p2.status, p2.body.result.map((r: any) => r.name)]).toEqual([200, ['r2', 'r3']]);
    // The whole run after it too: r2 and r3 deleted, the cursor after r3 leads to r4.
    await call('DELETE', `/zones/${z}/rulesets/${ids[2]}`);
    await call('DELETE', `/zones/${z}/rulesets/${ids[3]}`);
    const p3 = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p2.body.result_info.cursor}`);
    expect([p3.status, p3.body.result.map((r: any) => r.name)]).toEqual([200, ['r4', MANAGED_LISTED[0].name]]);
    // A ruleset created after the deletes comes after, never in place of, the deleted ones (and before the managed).
    await call('POST', `/zones/${z}/rulesets`, { name: 'r5', kind: 'custom', phase: 'http_request_firewall_custom' });
    const again = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p2.body.result_info.cursor}`);
    expect(again.body.result.map((r: any) => r.name)).toEqual(['r4', 'r5']);
    // Every own ruleset deleted after the cursor's: the next page starts at the managed ones.
    await call('DELETE', `/zones/${z}/rulesets/${ids[4]}`);
    const all = own((await call('GET', `/zones/${z}/rulesets`)).body.result);
    await call('DELETE', `/zones/${z}/rulesets/${all.find((r: any) => r.name === 'r5').id}`);
    const last = await call('GET', `/zones/${z}/rulesets?per_page=2&cursor=${p2.body.result_info.cursor}`);
    expect([last.status, last.body.result.map((r: any) => r.id), last.body.result_info.cursor]).toEqual([200, MANAGED_LISTED.map((m) => m.id), undefined]);
  });
});

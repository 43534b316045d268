/**
 * Rule expressions over real HTTP: the emulator checks each with the rules language and refuses invalid
 * ones with the API's message (`'<expr>' is not a valid value for expression because could not parse filter
 * expression: Filter parsing error (L:C): …`), leaving the ruleset unchanged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule } from './http.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let emu: RunningEmulator;
let call: ReturnType<typeof api>;
let zn = 0;
const zone = () => `exprzone${++zn}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokens: ['test-token'] });
  call = api(emu.url);
});
afterAll(() => emu.close());

const waf = (expression: string, extra: Record<string, unknown> = {}) => ({ action: 'block', expression, description: 'd', ...extra });

describe('rule expressions', () => {
  it('refuses an expression over the length limit before parsing it, and echoes only its start', async () => {
    const z = zone();
    const huge = `http.host eq "${'a'.repeat(1_000_000)}"`;
    const r = await call('POST', `/zones/${z}/rulesets`, { name: 'n', kind: 'custom', phase: 'http_request_firewall_custom', rules: [waf('true'), waf(huge)] });
    expect([r.status, r.body.errors[0].code, r.body.errors[0].source]).toEqual([400, ERROR_CODES.invalidExpression, { pointer: '/rules/1/expression' }]);
    expect(r.body.errors[0].message.length).toBeLessThan(1000);
    expect(r.body.errors[0].message).toContain('4096');
    // Counted in code points, as the checker counts (an astral character is one): 4096 pass, 4097 do not.
    const at = `http.host eq "${'😀'.repeat(4096 - 15)}"`;
    expect([...at].length).toBe(4096);
    expect((await call('POST', `/zones/${z}/rulesets`, { name: 'm', kind: 'custom', phase: 'http_request_firewall_custom', rules: [waf(at)] })).status).toBe(200);
    const over = await call('POST', `/zones/${z}/rulesets`, { name: 'o', kind: 'custom', phase: 'http_request_firewall_custom', rules: [waf(`(${at})`)] });
    expect([over.status, over.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
  });

  it('accepts valid expressions and stores them as sent', async () => {
    const z = zone();
    const r = await call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
      rules: [waf('http.request.uri.path contains "/checkout" and ip.src in {192.0.2.0/24}'), waf('true')],
    });
    expect(r.status).toBe(200);
    expect(r.body.result.rules.map((x: { expression: string }) => x.expression)).toEqual(['http.request.uri.path contains "/checkout" and ip.src in {192.0.2.0/24}', 'true']);
  });

  it('refuses an invalid expression as the API does, with line and byte column', async () => {
    const z = zone();
    const expr = '(ip.src ne 210.94.41.89 and not http.request.uri.path in {"/api/notices", "/api/notices/latest"})';
    const r = await call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [waf(expr)] });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.errors[0].code).toBe(ERROR_CODES.invalidExpression);
    expect(r.body.errors[0].message).toBe(
      `'${expr}' is not a valid value for expression because could not parse filter expression: Filter parsing error (1:73):\n${expr}\n${' '.repeat(72)}^^ invalid digit found in string while parsing with radix 16`,
    );
    const after = await call('GET', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`);
    expect(after.status).toBe(404);
  });

  it('counts UTF-8 bytes in the column', async () => {
    const z = zone();
    const r = await call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [waf('http.host eq "ü" and xyz')] });
    expect(r.body.errors[0].message).toContain('Filter parsing error (1:23):');
  });

  it('checks added and patched rules in the ruleset phase', async () => {
    const z = zone();
    const created = await call('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [waf('ssl')] });
    const id = created.body.result.id;
    const add = await call('POST', `/zones/${z}/rulesets/${id}/rules`, waf('http.response.code eq 500'));
    expect([add.status, add.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    expect(add.body.errors[0].message).toContain('(1:1):');
    expect(add.body.errors[0].message).toContain('unknown identifier');
    const ruleId = created.body.result.rules[0].id;
    const patch = await call('PATCH', `/zones/${z}/rulesets/${id}/rules/${ruleId}`, { expression: 'ssl and' });
    expect([patch.status, patch.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    const ok = await call('PATCH', `/zones/${z}/rulesets/${id}/rules/${ruleId}`, { expression: 'not ssl' });
    expect(ok.status).toBe(200);
  });

  it('checks rewrite values as value expressions and names the property', async () => {
    const z = zone();
    const rule = (value: string) => ({ action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: value } } } });
    const good = await call('PUT', `/zones/${z}/rulesets/phases/http_request_transform/entrypoint`, { rules: [rule('regex_replace(http.request.uri.path, "^/old/", "/new/")')] });
    expect(good.status).toBe(200);
    const bad = await call('PUT', `/zones/${z}/rulesets/phases/http_request_transform/entrypoint`, { rules: [rule('http.request.uri.path eq "/a"')] });
    expect([bad.status, bad.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    expect(bad.body.errors[0].message).toMatch(/^'http\.request\.uri\.path eq "\/a"' is not a valid value for expression because could not parse filter expression: Filter parsing error \(1:22\):/);
  });

  it('checks rate-limit counting expressions', async () => {
    const z = zone();
    const r = await call('PUT', `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`, {
      rules: [waf('ssl', { ratelimit: { counting_expression: 'http.response.code in {500 502,}' } })],
    });
    expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    expect(r.body.errors[0].message).toMatch(/is not a valid value for counting_expression because could not parse filter expression: Filter parsing error \(1:/);
  });

  it('keeps the custom-field rule requiring true', async () => {
    const z = zone();
    const r = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: ['user-agent'] }, { expression: 'ssl' })] });
    expect([r.status, r.body.errors[0].code]).toEqual([400, ERROR_CODES.customFieldExpression]);
    const ok = await call('PUT', `/zones/${z}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules: [cfRule({ req: ['user-agent'] })] });
    expect(ok.status).toBe(200);
  });

  it('refuses a page monitoring policy whose expression is invalid', async () => {
    const z = zone();
    const bad = await call('POST', `/zones/${z}/page_guard/policies`, { action: 'log', expression: 'http.host eq example.com', value: "script-src 'self'" });
    expect([bad.status, bad.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
    expect(bad.body.errors[0].message).toContain('Filter parsing error (1:14):');
    const good = await call('POST', `/zones/${z}/page_guard/policies`, { action: 'log', expression: 'http.host eq "example.com"', value: "script-src 'self'" });
    expect(good.status).toBe(200);
    const put = await call('PUT', `/zones/${z}/page_guard/policies/${good.body.result.id}`, { expression: 'ip.src in {1.2.3.4, 5.6.7.8}' });
    expect([put.status, put.body.errors[0].code]).toEqual([400, ERROR_CODES.invalidExpression]);
  });
});

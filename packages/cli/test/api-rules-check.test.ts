/**
 * `logfilter rulesets …` checks every expression before sending: an invalid one is refused locally (exit 1,
 * diagnostics naming the rule), and the emulator sees no request.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { file, logfilter } from './api-harness.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const TOKEN = 'rules-check-token';
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

describe('expressions are checked before rulesets commands send them', () => {
  it('refuses an invalid rule of a file, sending nothing', async () => {
    const before = emu.requestCount;
    const bad = file('bad-rules.json', JSON.stringify({ rules: [{ action: 'block', expression: 'ssl' }, { action: 'block', expression: 'ip.src in {1.2.3.4, 5.6.7.8}' }] }));
    const r = await logfilter(['rulesets', 'entrypoint', 'put', '--zone', 'z1', '--phase', 'http_request_firewall_custom', '--file', bad], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rule-list');
    expect(emu.requestCount).toBe(before);
    const dry = await logfilter(['rulesets', 'entrypoint', 'put', '--zone', 'z1', '--phase', 'http_request_firewall_custom', '--file', bad, '--dry-run'], env);
    expect(dry.code).toBe(1);
  });

  it('checks in the phase of the command', async () => {
    const resp = file('resp-rules.json', JSON.stringify([{ action: 'block', expression: 'http.response.code eq 500' }]));
    const r = await logfilter(['rulesets', 'entrypoint', 'put', '--zone', 'z2', '--phase', 'http_request_firewall_custom', '--file', resp], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rule-unavailable-in-phase');
  });

  it('refuses a bad --expression of rules add, and sends a good one', async () => {
    const created = await logfilter(['rulesets', 'create', '--zone', 'z3', '--name', 'n', '--kind', 'custom', '--phase', 'http_request_firewall_custom', '--json'], env);
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).id;
    const before = emu.requestCount;
    const bad = await logfilter(['rulesets', 'rules', 'add', id, '--zone', 'z3', '--action', 'block', '--expression', 'http.host eq example.com'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('rule-value');
    expect(emu.requestCount).toBe(before);
    const good = await logfilter(['rulesets', 'rules', 'add', id, '--zone', 'z3', '--action', 'block', '--expression', 'http.host eq "example.com"'], env);
    expect(good.code).toBe(0);
  });

  it('sends a valid file unchanged', async () => {
    const ok = file('ok-rules.json', JSON.stringify({ rules: [{ action: 'block', expression: 'http.request.uri.path contains "/admin" and not ip.src in $office' }] }));
    const r = await logfilter(['rulesets', 'entrypoint', 'put', '--zone', 'z4', '--phase', 'http_request_firewall_custom', '--file', ok], env);
    expect(r.code).toBe(0);
  });

  it('refuses a page-guard policy with an invalid expression, sending nothing, and creates a valid one', async () => {
    const before = emu.requestCount;
    const bad = await logfilter(['page-guard', 'policies', 'create', '--zone', 'pg1', '--action', 'log', '--expression', 'http.host eq "a" and', '--value', "script-src 'self'"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('rule-syntax');
    expect(emu.requestCount).toBe(before);
    const resp = await logfilter(['page-guard', 'policies', 'create', '--zone', 'pg1', '--action', 'log', '--expression', 'http.request.uri.path contains "/checkout"', '--value', "script-src 'self'"], env);
    expect(resp.code).toBe(0);
  });
});

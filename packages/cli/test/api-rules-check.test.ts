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

  it('reports an expression at its place in the flag or the file it was written in, never in a request body', async () => {
    const created = await logfilter(['rulesets', 'create', '--zone', 'z5', '--name', 'n', '--kind', 'custom', '--phase', 'http_request_firewall_custom', '--json'], env);
    const id = JSON.parse(created.stdout).id;
    const before = emu.requestCount;
    const flag = await logfilter(['rulesets', 'rules', 'add', id, '--zone', 'z5', '--action', 'block', '--expression', 'ssl and http.hots eq "x"', '--dry-run'], env);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--expression:1:9: error rule-unknown-identifier');
    expect(flag.stderr).not.toContain('request body');
    const yamlFile = file('rules.yaml', 'name: y\nkind: custom\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: >-\n      http.host eq "a" and\n      ip.src in {1.2.3.4, 5.6.7.8}\n');
    const y = await logfilter(['rulesets', 'create', '--zone', 'z5', '--file', yamlFile], env);
    expect(y.code).toBe(1);
    expect(y.stderr).toContain(`${yamlFile}:8:25: error rule-list`);
    const jsonFile = file('rules.json', '{"rules": [\n  {"action": "block",\n   "expression": "http.host eq \\"a\\" and http.hots eq \\"b\\""}]}');
    const j = await logfilter(['rulesets', 'update', id, '--zone', 'z5', '--file', jsonFile], env);
    expect(j.code).toBe(1);
    expect(j.stderr).toContain(`${jsonFile}:3:42: error rule-unknown-identifier`);
    const pg = await logfilter(['page-guard', 'policies', 'create', '--zone', 'pg2', '--action', 'log', '--expression', 'http.host eq\n"a" and', '--value', "script-src 'self'"], env);
    expect(pg.stderr).toContain('--expression:2:');
    expect(emu.requestCount).toBe(before);
  });

  it('a ruleset of an unknown phase is reported, in the file or by flag', async () => {
    const before = emu.requestCount;
    const bogus = file('bogus.json', '{"name": "b", "kind": "custom", "phase": "bogus_phase", "rules": [{"action": "block", "expression": "http.host eq \\"a\\""}]}');
    const r = await logfilter(['rulesets', 'create', '--zone', 'z6', '--file', bogus], env);
    // a bad name the user gave, like the flag below: exit 2, located
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bogus}:1:42: error rule-unknown-phase`);
    const flag = await logfilter(['rulesets', 'create', '--zone', 'z6', '--name', 'n', '--kind', 'custom', '--phase', 'bogus_phase'], env);
    expect(flag.code).toBe(2);
    expect(emu.requestCount).toBe(before);
    // a network-layer phase checks packet fields, and the emulator accepts it with the same list
    const net = file('net.json', JSON.stringify({ name: 'mt', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.proto eq "udp" and udp.dstport eq 53' }] }));
    const ok = await logfilter(['rulesets', 'create', '--account', 'a1', '--file', net], env);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const wrong = file('net-bad.json', JSON.stringify({ name: 'mt2', kind: 'custom', phase: 'magic_transit', rules: [{ action: 'block', expression: 'http.host eq "a"' }] }));
    const w = await logfilter(['rulesets', 'create', '--account', 'a1', '--file', wrong], env);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain('rule-unavailable-in-phase');
  });
});

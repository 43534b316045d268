/** `logfilter rules check|fmt` and the pre-send check of ruleset and policy expressions. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { CliError, checkBodyExpressions, refuseInvalidExpressions } from '../src/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-rules-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('logfilter rules check', () => {
  it('a .rule file may start with comment lines; # phase: sets its phase (for check, fmt keeps them)', async () => {
    const net = file('net.rule', '# block DNS floods\n# phase: magic_transit\nudp.dstport eq 53 and ip.proto eq "udp"\n');
    expect((await runCli('logfilter', ['rules', 'check', net])).code).toBe(0);
    const http = file('http.rule', '# phase: http_request_firewall_custom\nhttp.response.code eq 503\n');
    const r = await runCli('logfilter', ['rules', 'check', http]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${http}:2:1: error rule-unavailable-in-phase`);
    const typo = file('typo.rule', '# phase: http_request_firewal_custom\nssl\n');
    const t = await runCli('logfilter', ['rules', 'check', typo]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(`${typo}:1:10: error rule-unknown-phase`);
    const messy = file('messy.rule', '# phase: magic_transit\ntcp.dstport==80&&!tcp.flags.syn\n');
    const f = await runCli('logfilter', ['rules', 'fmt', messy]);
    expect([f.code, f.stdout]).toEqual([0, '# phase: magic_transit\ntcp.dstport eq 80 and not tcp.flags.syn\n']);
    const e = await runCli('logfilter', ['rules', 'eval', net, '--request', '-'], { stdin: '{"udp.dstport": 53, "ip.proto": "udp"}' });
    expect([e.code, e.stdout]).toEqual([0, 'request 1: match\n']);
  });

  it('reports an unknown phase of a ruleset file (and still checks its expressions)', async () => {
    const r = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json'], { stdin: '{"phase":"bogus_phase","rules":[{"expression":"http.host eq"}]}' });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr) as { code: string; path?: unknown[]; range: { start: { column: number } } }[];
    expect(ds.map((d) => [d.code, d.range.start.column])).toEqual([
      ['rule-unknown-phase', 10],
      ['rule-missing-value', 58],
    ]);
    expect(ds[0]!.path).toEqual(['phase']);
  });

  it('reports a rule\'s unknown action where it is, in JSON and YAML (one RULE_ACTIONS table with --action)', async () => {
    const r = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json'], { stdin: '{"phase":"http_request_firewall_custom","rules":[{"action":"blok","expression":"ssl"},{"action":"log","expression":"ssl"}]}' });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr) as { code: string; path?: unknown[]; suggestions?: string[]; range: { start: { line: number; column: number } } }[];
    expect(ds.map((d) => [d.code, d.range.start.column, d.path])).toEqual([['rule-unknown-action', 60, ['rules', 0, 'action']]]);
    expect(ds[0]!.suggestions).toContain('block');
    const y = file('action.yaml', 'phase: http_request_firewall_custom\nrules:\n  - action: execute\n    expression: ssl\n  - action: blok\n    expression: ssl\n');
    const t = await runCli('logfilter', ['rules', 'check', y]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(`${y}:5:13: error rule-unknown-action`);
  });

  it('knows the network-layer phases and their packet fields', async () => {
    const ok = await runCli('logfilter', ['rules', 'check', '--phase', 'magic_transit', '-'], { stdin: 'ip.proto eq "tcp" and tcp.dstport in {80 443} and not tcp.flags.syn' });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const cache = await runCli('logfilter', ['rules', 'check', '--phase', 'http_response_cache_settings', '-'], { stdin: 'http.response.code eq 200' });
    expect([cache.code, cache.stderr]).toEqual([0, '']);
    const http = await runCli('logfilter', ['rules', 'check', '--phase', 'magic_transit', '--diagnostics', 'json', '-'], { stdin: 'http.host eq "a"' });
    expect([http.code, JSON.parse(http.stderr)[0].code]).toEqual([1, 'rule-unavailable-in-phase']);
    expect((await runCli('logfilter', ['rules', 'check', '--phase', 'bogus_phase', '-'], { stdin: 'ssl' })).code).toBe(2);
  });

  it('reads the YAML rulesets that rulesets create --file accepts, reporting at the YAML line and column', async () => {
    const p = file('rules.yaml', 'name: y\nkind: custom\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: \'http.host eq "a" and http.hots eq "b"\'\n  - action: block\n    expression: |\n      ssl\n      and http.response.code eq 200\n');
    const r = await runCli('logfilter', ['rules', 'check', p]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${p}:6:39: error rule-unknown-identifier`);
    expect(r.stderr).toContain(`${p}:10:11: error rule-unavailable-in-phase`);
    const good = file('good.yml', '- action: log\n  expression: ip.src in {192.0.2.0/24}\n');
    expect((await runCli('logfilter', ['rules', 'check', good])).code).toBe(0);
    const broken = file('broken.yaml', 'rules: [\n');
    const b = await runCli('logfilter', ['rules', 'check', broken]);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('not valid YAML');
  });

  it('exits 0 and prints nothing for a valid expression', async () => {
    const r = await runCli('logfilter', ['rules', 'check', '-'], { stdin: 'http.request.uri.path contains "/checkout" and ip.src in {192.0.2.0/24}' });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('prints file:line:col, code, line and caret; exits 1', async () => {
    const p = file('bad.rule', 'ssl\nand http.hots eq "x"\n');
    const r = await runCli('logfilter', ['rules', 'check', p]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${p}:2:5: error rule-unknown-identifier:`);
    expect(r.stderr).toContain('   2 | and http.hots eq "x"');
  });

  it('--diagnostics json: codes and 1-based ranges; [] when all is well', async () => {
    const r = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json'], { stdin: 'ip.src in {1.2.3.4, 5.6.7.8}' });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr);
    expect(ds.map((d: { code: string; range: { start: { line: number; column: number } } }) => [d.code, d.range.start.line, d.range.start.column])).toEqual([['rule-list', 1, 19]]);
    const ok = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json'], { stdin: 'ssl' });
    expect([ok.code, ok.stderr.trim()]).toEqual([0, '[]']);
  });

  it('--diagnostics api prints the API error text of the first error', async () => {
    const r = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'api'], { stdin: '(ip.src ne 210.94.41.89 and not http.request.uri.path in {"/api/notices", "/api/notices/latest"})' });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('Filter parsing error (1:73):');
    expect(r.stderr.split('\n')[2]).toBe(`${' '.repeat(72)}^^ invalid digit found in string while parsing with radix 16`);
  });

  it('--phase limits fields and functions; --kind value checks a rewrite value', async () => {
    const resp = 'http.response.code eq 503';
    expect((await runCli('logfilter', ['rules', 'check', '-'], { stdin: resp })).code).toBe(0);
    const r = await runCli('logfilter', ['rules', 'check', '--phase', 'http_request_firewall_custom', '--diagnostics', 'json'], { stdin: resp });
    expect([r.code, JSON.parse(r.stderr)[0].code]).toEqual([1, 'rule-unavailable-in-phase']);
    expect((await runCli('logfilter', ['rules', 'check', '--kind', 'value', '-'], { stdin: 'concat("https://example.com", http.request.uri.path)' })).code).toBe(0);
    expect((await runCli('logfilter', ['rules', 'check', '-'], { stdin: 'concat("https://example.com", http.request.uri.path)' })).code).toBe(1);
  });

  it('checks every expression of a ruleset JSON file, located in the file', async () => {
    const text = JSON.stringify(
      {
        name: 'default',
        phase: 'http_request_transform',
        rules: [
          { action: 'rewrite', expression: 'http.host eq "a"', action_parameters: { uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/a", "/b")' } } } },
          { action: 'rewrite', expression: 'http.host eq "b" and ip.src in {1.2.3.4, 5.6.7.8}', action_parameters: { uri: { path: { expression: 'lowr(http.request.uri.path)' } } } },
        ],
      },
      null,
      2,
    );
    const p = file('ruleset.json', text);
    const r = await runCli('logfilter', ['rules', 'check', p, '--diagnostics', 'json']);
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr) as { code: string; path: (string | number)[]; range: { start: { offset: number } } }[];
    expect(ds.map((d) => [d.code, d.path.join('.')])).toEqual([
      ['rule-list', 'rules.1.expression'],
      ['rule-unknown-identifier', 'rules.1.action_parameters.uri.path.expression'],
    ]);
    expect(text.slice(ds[0].range.start.offset, ds[0].range.start.offset + 1)).toBe(',');
    expect(text.slice(ds[1].range.start.offset, ds[1].range.start.offset + 4)).toBe('lowr');
  });

  it('usage and I/O errors exit 2', async () => {
    expect((await runCli('logfilter', ['rules', 'check', '--phase', 'nope', '-'], { stdin: 'ssl' })).code).toBe(2);
    expect((await runCli('logfilter', ['rules', 'check', '--kind', 'nope', '-'], { stdin: 'ssl' })).code).toBe(2);
    const missing = await runCli('logfilter', ['rules', 'check', path.join(dir, 'missing.rule')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.rule');
    expect((await runCli('logfilter', ['rules', 'check'], {})).code).toBe(2);
    expect((await runCli('logfilter', ['rules', 'check', '-'], { stdin: '{"rules": [' })).code).toBe(1);
  });
});

describe('logfilter rules fmt', () => {
  it('prints the canonical form', async () => {
    const r = await runCli('logfilter', ['rules', 'fmt', '-'], { stdin: '(http.host=="a"||http.host == "b")&&!ssl' });
    expect([r.code, r.stdout]).toEqual([0, '(http.host eq "a" or http.host eq "b") and not ssl\n']);
  });

  it('--check lists unformatted files (exit 1); --write rewrites them', async () => {
    const a = file('a.rule', 'ssl  and  ssl\n');
    const b = file('b.rule', 'ssl and ssl\n');
    const check = await runCli('logfilter', ['rules', 'fmt', '--check', a, b]);
    expect([check.code, check.stdout]).toEqual([1, `${a}\n`]);
    const write = await runCli('logfilter', ['rules', 'fmt', '--write', a, b]);
    expect(write.code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe('ssl and ssl\n');
    expect((await runCli('logfilter', ['rules', 'fmt', '--check', a, b])).code).toBe(0);
  });

  it('refuses text with syntax errors (exit 1, diagnostics) and bad flag combinations (exit 2)', async () => {
    const r = await runCli('logfilter', ['rules', 'fmt', '-'], { stdin: 'ssl and (' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('rule-syntax');
    expect((await runCli('logfilter', ['rules', 'fmt', '--check', '--write', '-'], { stdin: 'ssl' })).code).toBe(2);
    expect((await runCli('logfilter', ['rules', 'fmt', '--write', '-'], { stdin: 'ssl' })).code).toBe(2);
  });
});

describe('pre-send check of expressions', () => {
  const ctx = () => {
    let err = '';
    return { ctx: { stdout: { write: () => true }, stderr: { write: (s: string | Uint8Array) => ((err += String(s)), true) }, stdin: process.stdin, env: {}, cwd: dir }, err: () => err };
  };

  it('passes a valid ruleset body and a policy', () => {
    const c = ctx();
    expect(() => refuseInvalidExpressions(c.ctx, { name: 'body', body: { rules: [{ action: 'block', expression: 'ip.src in $cf.open_proxies' }] } }, { phase: 'http_request_firewall_custom' })).not.toThrow();
    expect(() => refuseInvalidExpressions(c.ctx, { name: 'policy', body: { action: 'allow', expression: 'http.host eq "example.com"', value: "script-src 'self'" } })).not.toThrow();
    expect(c.err()).toBe('');
  });

  it('refuses an invalid expression with its diagnostics and exit 1', () => {
    const c = ctx();
    let thrown: unknown;
    try {
      refuseInvalidExpressions(c.ctx, { name: 'body', body: { rules: [{ action: 'block', expression: 'http.host eq example.com' }] } });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).exitCode).toBe(1);
    expect(c.err()).toContain('rule-value');
  });

  it('checks counting expressions and names their path', () => {
    const r = checkBodyExpressions({ name: 'x', body: { phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'ssl', ratelimit: { counting_expression: 'http.response.code eq' } }] } });
    expect(r.diagnostics.map((d) => [d.code, d.path?.join('.')])).toEqual([['rule-missing-value', 'rules.0.ratelimit.counting_expression']]);
  });
});

/**
 * Input given to the wrong command names the right one (usage error, exit 2), and decompile's output that does
 * not compile back is printed with its diagnostics and exit 1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { REPO } from '../../../test/support/paths.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-wrong-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string | Buffer) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

const JSON_FILTER = '{"where":{"key":"ClientRequestHost","operator":"eq","value":"example.com"}}\n';
const SOURCE = 'ClientRequestHost == "example.com"\n';

describe('input that went to the wrong command', () => {
  it('compile (and compile-filter) on filter JSON names decompile and check, exit 2, one line', async () => {
    const json = put('filter.json', JSON_FILTER);
    for (const r of [await runCli('logfilter', ['compile', json]), await runCli('compile-filter', [json])]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`logfilter decompile ${json}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    // --to sql takes JSON on purpose
    expect((await runCli('logfilter', ['compile', json, '--to', 'sql', '--dialect', 'duckdb'])).code).toBe(0);
  });

  it('decompile on source names compile, exit 2; JSON that is merely invalid keeps its diagnostics', async () => {
    const src = put('f.logfilter', SOURCE);
    const r = await runCli('logfilter', ['decompile', src]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`logfilter compile ${src}`);
    const broken = await runCli('logfilter', ['decompile', put('broken.json', '{"where": ')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).not.toContain('logfilter compile');
  });

  it('eval with its arguments swapped names the right order, exit 2, before reading anything', async () => {
    const src = put('s.logfilter', SOURCE);
    const logs = put('logs.ndjson', '{"ClientRequestHost":"example.com"}\n');
    const r = await runCli('logfilter', ['eval', logs, src]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`logfilter eval ${src} ${logs}`);
  });

  it('eval on a Parquet file with the built-in engine names --engine duckdb, exit 2', async () => {
    const src = put('p.logfilter', SOURCE);
    const parquet = put('logs.bin', Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), Buffer.from('PAR1')]));
    const r = await runCli('logfilter', ['eval', src, parquet]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--engine duckdb');
    expect(r.stderr).not.toMatch(/malformed/);
  });

  it('eval with no input read at all reports the read error without "no line carried the field" warnings', async () => {
    const src = put('m.logfilter', 'ClientRequestHost == "a" and EdgeResponseStatus >= 500\n');
    const r = await runCli('logfilter', ['eval', src, path.join(dir, 'missing.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.ndjson');
    expect(r.stderr).not.toContain('ClientRequestHost');
    expect(r.stderr).not.toContain('EdgeResponseStatus');
  });
});

describe('a rules-language expression given to a filter command, or a filter to a rules command', () => {
  const RULE = 'http.host eq "example.com" and ip.src in {192.0.2.0/24}\n';

  it('compile, decompile, eval and check-by-content name rules check / rules eval, exit 2, one line', async () => {
    const rule = put('r.rule', RULE);
    const plain = put('r.txt', RULE);
    const logs = put('l.ndjson', '{"ClientRequestHost":"example.com"}\n');
    for (const [argv, want] of [
      [['compile', rule], `logfilter rules check ${rule}`],
      [['compile', plain], `logfilter rules check ${plain}`],
      [['decompile', rule], `logfilter rules check ${rule}`],
      [['eval', rule, logs], `logfilter rules eval ${rule}`],
      [['eval', plain, logs], `logfilter rules eval ${plain}`],
    ] as const) {
      const r = await runCli('logfilter', [...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, argv.join(' ')).toContain(want);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    // from standard input too, named "-"
    const stdin = await runCli('logfilter', ['compile'], { stdin: RULE });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('logfilter rules check -');
    // a broken filter that is no rules expression keeps its own diagnostics
    const broken = await runCli('logfilter', ['compile', put('b.logfilter', 'ClientRequestHost == \n')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).not.toContain('rules check');
  });

  it('telling the languages apart keeps the rules checker out of the compile-filter and eval bundles (their start-up)', () => {
    const bundle = (name: string) => readFileSync(path.join(REPO, 'packages/cli/dist', name), 'utf8');
    // a code of the rules checker's own: the full CLI has it, so the marker does tell
    expect(bundle('logfilter.cjs')).toContain('rule-unknown-identifier');
    expect(bundle('compile-filter.cjs')).not.toContain('rule-unknown-identifier');
    expect(bundle('logfilter-eval.cjs')).not.toContain('rule-unknown-identifier');
  });

  it('rules check and rules eval on a filter (source or JSON) name check / eval, exit 2', async () => {
    const src = put('g.logfilter', SOURCE);
    const plain = put('g.txt', SOURCE);
    const json = put('g.json', JSON_FILTER);
    const req = put('req.json', '{"http.host": "example.com"}');
    for (const [argv, want] of [
      [['rules', 'check', src], `logfilter check ${src}`],
      [['rules', 'check', plain], `logfilter check ${plain}`],
      [['rules', 'check', json], `logfilter check ${json}`],
      [['rules', 'eval', src, '--request', req], `logfilter eval ${src}`],
      [['rules', 'eval', json, '--request', req], `logfilter eval ${json}`],
    ] as const) {
      const r = await runCli('logfilter', [...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(want);
    }
    // a broken expression that is no filter keeps its own diagnostics
    const broken = await runCli('logfilter', ['rules', 'check', put('b.rule', 'http.host eq\n')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).not.toContain('logfilter check');
  });

  it('rules check on a JSON or YAML document that holds no expression says so (exit 2) instead of passing silently', async () => {
    for (const [name, text] of [
      ['none.json', '{"name": "x", "action": "block"}'],
      ['typo.yaml', 'action: block\nexpresion: http.host eq "a"\n'],
      ['num.json', '{"expression": 5}'],
      ['items.json', '[1, 2]'],
      ['null.yaml', 'rules:\n  - null\n'],
      ['num.yaml', 'rules:\n  - action: block\n    expression: 5\n'],
    ] as const) {
      const r = await runCli('logfilter', ['rules', 'check', put(name, text)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toContain(name);
    }
    // a ruleset with no rules is fine
    expect((await runCli('logfilter', ['rules', 'check', put('empty.json', '{"phase": "http_request_firewall_custom", "rules": []}')])).code).toBe(0);
  });
});

describe('decompile output that does not compile back', () => {
  it.each([
    ['a float on an integer field', '{"where":{"key":"BotScore","operator":"gt","value":1e2}}'],
    ['an unknown field', '{"where":{"key":"NoSuchField","operator":"eq","value":"x"}}'],
  ])('%s: the source is printed, with the diagnostics, exit 1', async (_, json) => {
    const r = await runCli('logfilter', ['decompile', put('d.json', json)]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toBe('');
    expect(r.stderr).toMatch(/\(as source\):1:\d+: error/);
    const j = await runCli('logfilter', ['decompile', put('d.json', json), '--diagnostics', 'json']);
    expect(j.code).toBe(1);
    const diags = JSON.parse(j.stderr.trim());
    expect(diags.some((d: { severity: string; file: string }) => d.severity === 'error' && d.file.endsWith('(as source)'))).toBe(true);
  });

  it('a filter that compiles back exits 0', async () => {
    const r = await runCli('logfilter', ['decompile', put('ok.json', JSON_FILTER)]);
    expect([r.code, r.stdout]).toEqual([0, SOURCE]);
  });
});

describe('the rules-field pattern of the wrong-command hint', () => {
  it('knows every namespace of the rules language field table (a pattern, so the start-up bundles need not load it)', async () => {
    const { RULE_FIELDS } = await import('@logfilter/core');
    const { RULES_FIELD } = await import('../src/wrong-command.js');
    const dotted = RULE_FIELDS.map((f) => f.name).filter((n) => n.includes('.'));
    expect(dotted.length).toBeGreaterThan(100);
    for (const name of dotted) expect([name, RULES_FIELD.test(` ${name} eq 1`)]).toEqual([name, true]);
  });
});

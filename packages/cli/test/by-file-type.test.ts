/**
 * `logfilter check` and `logfilter fmt` serve both languages by file type (a `.rule` file is a rules
 * expression; `rules check`/`rules fmt` stay as aliases), the one `--phase` check of every command, and
 * filter JSON reaching SQL and jobs through the JSON check() computed (no sniffing, no source round trip).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-by-type-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('logfilter check by file type', () => {
  it('checks a .rule file as rules check does: its # phase: header, exit 1 and located diagnostics', async () => {
    const ok = file('ok.rule', '# phase: magic_transit\nudp.dstport eq 53\n');
    expect(await runCli('logfilter', ['check', ok])).toMatchObject({ code: 0, stderr: '' });
    const bad = file('bad.rule', '# phase: http_request_firewall_custom\nhttp.response.code eq 503\n');
    const r = await runCli('logfilter', ['check', '--diagnostics', 'json', bad]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual([expect.objectContaining({ code: 'rule-unavailable-in-phase', range: expect.objectContaining({ start: { line: 2, column: 1, offset: 38 } }) })]);
    // the same answers as the alias
    const alias = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json', bad]);
    expect([alias.code, alias.stderr]).toEqual([r.code, r.stderr]);
    const api = await runCli('logfilter', ['check', '--diagnostics', 'api', '--phase', 'http_request_firewall_custom', file('api.rule', 'http.host eq')]);
    expect(api.code).toBe(1);
    expect(api.stderr).toMatch(/\(1:13\)/);
  });

  it('a filter is still a filter: source or JSON, the core telling them apart', async () => {
    expect((await runCli('logfilter', ['check', file('f.logfilter', 'ClientCountry == "us"\n')])).code).toBe(0);
    const json = await runCli('logfilter', ['check', '--diagnostics', 'json', file('f.json', '{"where":{"key":"Nope","operator":"eq","value":1}}')]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual([expect.objectContaining({ code: 'unknown-field', path: ['where', 'key'], range: { start: { line: 1, column: 17, offset: 16 }, end: { line: 1, column: 23, offset: 22 } } })]);
    expect((await runCli('logfilter', ['check', '-'], { stdin: 'http.host eq "a"' })).code).toBe(1);
  });

  it('checks a *.ruleset.json file as rules check does (the language server\'s file type too): every expression, located in the JSON', async () => {
    const doc = file('edge.ruleset.json', '{"phase":"http_request_firewall_custom","rules":[\n {"expression":"ssl","action":"block"},\n {"expression":"http.hots eq \\"a\\"","action":"block"}]}\n');
    const r = await runCli('logfilter', ['check', '--diagnostics', 'json', doc]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual([expect.objectContaining({ code: 'rule-unknown-identifier', range: expect.objectContaining({ start: { line: 3, column: 17, offset: 106 } }) })]);
    const alias = await runCli('logfilter', ['rules', 'check', '--diagnostics', 'json', doc]);
    expect([alias.code, alias.stderr]).toEqual([r.code, r.stderr]);
    expect((await runCli('logfilter', ['check', file('ok.RULESET.JSON', '{"rules":[{"expression":"ssl"}]}')])).code).toBe(0);
    expect((await runCli('logfilter', ['check', '--dataset', 'dns_logs', doc])).code).toBe(2);
  });

  it('a flag of the other language is a usage error (exit 2), as is an unknown phase', async () => {
    const rule = file('r.rule', 'ssl\n');
    const filter = file('x.logfilter', 'ClientCountry == "us"\n');
    expect((await runCli('logfilter', ['check', '--dataset', 'dns_logs', rule])).code).toBe(2);
    expect((await runCli('logfilter', ['check', '--max-operators', '3', rule])).code).toBe(2);
    expect((await runCli('logfilter', ['check', '--phase', 'magic_transit', filter])).code).toBe(2);
    expect((await runCli('logfilter', ['check', '--kind', 'value', filter])).code).toBe(2);
    expect((await runCli('logfilter', ['check', '--diagnostics', 'api', filter])).code).toBe(2);
    // fmt too, when no .rule file is given for --kind to apply to (standard input is a filter); nothing printed
    for (const [args, stdin] of [[['fmt', '--kind', 'value', filter]], [['fmt', '--kind', 'filter', '-'], 'a == 1']] as const) {
      expect(await runCli('logfilter', [...args], { stdin })).toMatchObject({ code: 2, stdout: '' });
    }
    expect((await runCli('logfilter', ['fmt', '--kind', 'filter', rule, filter])).code).toBe(0);
    for (const args of [['check', '--phase', 'http_request_firewal_custom', rule], ['rules', 'check', '--phase', 'nope', rule], ['rules', 'eval', '--phase', 'nope', '--request', rule, 'ssl']]) {
      const r = await runCli('logfilter', args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--phase');
    }
  });
});

describe('logfilter fmt by file type', () => {
  it('formats .rule files as rules fmt does and other files as .logfilter source, in one run', async () => {
    const rule = file('m.rule', '# phase: magic_transit\ntcp.dstport==80&&!tcp.flags.syn\n');
    const src = file('m.logfilter', 'ClientCountry=="us"   and EdgeResponseStatus>=500');
    const check = await runCli('logfilter', ['fmt', '--check', rule, src]);
    expect([check.code, check.stdout]).toEqual([1, `${rule}\n${src}\n`]);
    const out = await runCli('logfilter', ['fmt', rule]);
    expect([out.code, out.stdout]).toEqual([0, '# phase: magic_transit\ntcp.dstport eq 80 and not tcp.flags.syn\n']);
    expect((await runCli('logfilter', ['rules', 'fmt', rule])).stdout).toBe(out.stdout);
    expect((await runCli('logfilter', ['fmt', '--write', rule, src])).code).toBe(0);
    expect(readFileSync(rule, 'utf8')).toBe('# phase: magic_transit\ntcp.dstport eq 80 and not tcp.flags.syn\n');
    expect(readFileSync(src, 'utf8')).toBe('ClientCountry == "us" and EdgeResponseStatus >= 500\n');
    expect((await runCli('logfilter', ['fmt', '--check', rule, src])).code).toBe(0);
  });

  it('keeps a CRLF file CRLF (both languages); --write then --check finds it formatted', async () => {
    const rule = file('crlf.rule', '# phase: magic_transit\r\ntcp.dstport==80&&!tcp.flags.syn\r\n');
    const src = file('crlf.logfilter', 'dataset http_requests\r\nClientCountry=="us"   and EdgeResponseStatus>=500\r\n');
    expect((await runCli('logfilter', ['fmt', rule])).stdout).toBe('# phase: magic_transit\r\ntcp.dstport eq 80 and not tcp.flags.syn\r\n');
    expect((await runCli('logfilter', ['fmt', '--write', rule, src])).code).toBe(0);
    expect(readFileSync(src, 'utf8').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(readFileSync(src, 'utf8')).toContain('\r\n');
    expect((await runCli('logfilter', ['fmt', '--check', rule, src])).code).toBe(0);
  });

  it('keeps a byte-order mark (both languages): --write formats after it, --check then finds the file formatted', async () => {
    const BOM = '\uFEFF';
    const rule = file('bom.rule', `${BOM}# phase: magic_transit\ntcp.dstport==80\n`);
    const src = file('bom.logfilter', `${BOM}ClientCountry=="us"\n`);
    expect((await runCli('logfilter', ['fmt', '--write', rule, src])).code).toBe(0);
    expect(readFileSync(rule, 'utf8')).toBe(`${BOM}# phase: magic_transit\ntcp.dstport eq 80\n`);
    expect(readFileSync(src, 'utf8')).toBe(`${BOM}ClientCountry == "us"\n`);
    expect((await runCli('logfilter', ['fmt', '--check', rule, src])).code).toBe(0);
    // printed, the text comes without it (what the file holds, not how it was stored)
    expect((await runCli('logfilter', ['fmt', src])).stdout).toBe('ClientCountry == "us"\n');
  });

  it('a .rule file that does not parse: exit 1, its errors located; --kind value formats a value expression', async () => {
    const bad = file('bad-fmt.rule', 'ssl and (');
    const r = await runCli('logfilter', ['fmt', '--diagnostics', 'json', bad]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)[0]).toMatchObject({ code: 'rule-syntax' });
    const value = file('v.rule', 'concat("/a",http.request.uri.path)');
    expect((await runCli('logfilter', ['fmt', '--kind', 'value', value])).stdout).toBe('concat("/a", http.request.uri.path)\n');
  });
});

describe('logfilter fmt of a JSON file', () => {
  it.each([
    ['filter JSON', 'f.filter.json', '{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}'],
    ['a job filter string', 'job.json', '"{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}}"'],
    ['a ruleset JSON file', 'r.ruleset.json', '{"rules":[{"expression":"ssl"}]}'],
  ])('%s: a usage error (exit 2) naming the file, not a list of syntax errors; nothing written', async (_what, name, text) => {
    const p = file(name, text);
    for (const args of [['fmt', p], ['fmt', '--write', p], ['fmt', '--check', p]]) {
      const r = await runCli('logfilter', args);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain(name);
      expect(r.stderr).not.toMatch(/unexpected character/);
    }
    expect(readFileSync(p, 'utf8')).toBe(text);
    const stdin = await runCli('logfilter', ['fmt', '-'], { stdin: text });
    expect(stdin.code).toBe(2);
  });
});

describe('filter JSON through the JSON check() computed', () => {
  it('compile --to sql: integers beyond 2^53 exact, and a key no source can spell', async () => {
    const big = file('big.json', '{"where":{"key":"EdgeResponseBytes","operator":"eq","value":9007199254740993}}');
    const r = await runCli('logfilter', ['compile', '--to', 'sql', '--dialect', 'duckdb', big]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('9007199254740993');
    const odd = file('odd.json', '{"where":{"key":"a`b","operator":"eq","value":"x"}}');
    const o = await runCli('logfilter', ['compile', '--to', 'sql', '--dialect', 'duckdb', '--dataset', 'any', odd]);
    expect(o.code).toBe(0);
    expect(o.stdout).toContain('a`b');
    const bad = await runCli('logfilter', ['compile', '--to', 'sql', '--dialect', 'duckdb', '--diagnostics', 'json', file('bad.json', '{"where":{"key":"Nope","operator":"eq","value":1}}')]);
    expect([bad.code, bad.stdout]).toEqual([1, '']);
    expect(JSON.parse(bad.stderr)).toEqual([expect.objectContaining({ code: 'unknown-field' })]);
  });
});

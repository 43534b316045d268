/**
 * The compile-filter / logfilter compile, decompile, fmt and check commands: outputs, diagnostics in both
 * formats, exit codes 0/1/2 (docs/language.md#command-line).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-cli-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const OK = file('ok.logfilter', 'dataset http_requests\nClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500\n');
const JSON_OUT = '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"api.example.com"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}}';
const BAD = file('bad.logfilter', 'ClientRequestHst == "x"\nand BotScore < "30"\n');

describe('compile-filter', () => {
  it('prints the compact JSON and exits 0', async () => {
    const r = await runCli('compile-filter', [OK]);
    expect(r).toEqual({ code: 0, stdout: `${JSON_OUT}\n`, stderr: '' });
  });
  it('is the same as logfilter compile', async () => {
    expect((await runCli('logfilter', ['compile', OK])).stdout).toBe(`${JSON_OUT}\n`);
  });
  it('reads standard input (- or no file)', async () => {
    const src = readFileSync(OK, 'utf8');
    expect((await runCli('compile-filter', ['-'], { stdin: src })).stdout).toBe(`${JSON_OUT}\n`);
    expect((await runCli('compile-filter', [], { stdin: src })).stdout).toBe(`${JSON_OUT}\n`);
  });
  it('--format pretty, string and terraform', async () => {
    const pretty = (await runCli('compile-filter', [OK, '--format', 'pretty'])).stdout;
    expect(JSON.parse(pretty)).toEqual(JSON.parse(JSON_OUT));
    expect(pretty.split('\n').length).toBeGreaterThan(5);
    const str = (await runCli('compile-filter', [OK, '--format', 'string'])).stdout;
    expect(JSON.parse(str)).toBe(JSON_OUT);
    const tf = (await runCli('compile-filter', [OK, '--format', 'terraform'])).stdout;
    expect(tf.startsWith('jsonencode({')).toBe(true);
    expect(JSON.parse(tf.trim().slice('jsonencode('.length, -1))).toEqual(JSON.parse(JSON_OUT));
  });
  it('keeps integer digits beyond 2^53 in every format', async () => {
    const f = file('ts.logfilter', 'EdgeStartTimestamp >= 1700000000123456789\n');
    for (const fmt of ['json', 'pretty', 'terraform']) expect((await runCli('compile-filter', [f, '--format', fmt])).stdout).toContain('1700000000123456789');
  });
  it('errors: diagnostics with file:line:col, the line and a caret; exit 1; nothing on stdout', async () => {
    const r = await runCli('compile-filter', [BAD]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${BAD}:1:1: error unknown-field:`);
    expect(r.stderr).toContain(`${BAD}:2:16: warning numeric-string:`);
    expect(r.stderr).toContain('   1 | ClientRequestHst == "x"\n     | ^~~~~~~~~~~~~~~~\n');
    expect(r.stderr).not.toMatch(/\x1b\[/);
  });
  it.each([
    ['wide characters take two columns', 'ClientRequestHost == "日本" and Foo == 1', 'ClientRequestHost == "日本" and Foo == 1', 32, 3],
    ['a combining mark takes none', 'ClientRequestHost == "e\u0301" and Foo == 1', 'ClientRequestHost == "e\u0301" and Foo == 1', 29, 3],
    ['a tab is one column', '\tFoo == 1', ' Foo == 1', 1, 3],
    ['an escape character is shown as its symbol, never sent raw', '`a\u001b[31m` == 1', '`a\u241b[31m` == 1', 0, 8],
  ])('the caret sits under the problem as a terminal shows the line: %s', async (_what, src, shownLine, caretColumn, width) => {
    const r = await runCli('compile-filter', ['-'], { stdin: src });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toContain(`   1 | ${shownLine}\n     | ${' '.repeat(caretColumn)}^${'~'.repeat(width - 1)}\n`);
  });
  it('--diagnostics json: a JSON array on stderr with 1-based ranges', async () => {
    const r = await runCli('compile-filter', [BAD, '--diagnostics', 'json']);
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr);
    expect(ds.map((d: { code: string }) => d.code)).toEqual(['unknown-field', 'numeric-string']);
    expect(ds[0]).toMatchObject({ severity: 'error', range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 17, offset: 16 } } });
    expect(ds[1].range).toEqual({ start: { line: 2, column: 16, offset: 39 }, end: { line: 2, column: 20, offset: 43 } });
    expect(typeof ds[0].message).toBe('string');
  });
  it('--diagnostics json prints [] when all is well', async () => {
    const r = await runCli('compile-filter', [OK, '--diagnostics', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stderr)).toEqual([]);
  });
  it('warnings alone still compile (exit 0)', async () => {
    const r = await runCli('compile-filter', [file('w.logfilter', 'BotScore < "30"')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"where":{"key":"BotScore","operator":"lt","value":"30"}}\n');
    expect(r.stderr).toContain('warning numeric-string');
  });
  it('--check prints nothing on stdout', async () => {
    expect(await runCli('compile-filter', [OK, '--check'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await runCli('compile-filter', [BAD, '--check'])).code).toBe(1);
  });
  it('--dataset any and --dataset NAME', async () => {
    const f = file('x.logfilter', 'QueryName endsWith ".example.com"');
    expect((await runCli('compile-filter', [f])).code).toBe(1);
    expect((await runCli('compile-filter', [f, '--dataset', 'dns_logs'])).code).toBe(0);
    expect((await runCli('compile-filter', [f, '--dataset', 'any'])).code).toBe(0);
  });
  it('an unknown --dataset is a usage error (exit 2) naming the closest dataset, or every one when none is close', async () => {
    const f = file('d.logfilter', 'ClientRequestHost == "a"');
    for (const [bin, argv] of [
      ['compile-filter', [f]],
      ['logfilter', ['compile', f]],
      ['logfilter', ['check', f]],
      ['logfilter', ['eval', f, f]],
    ] as const) {
      // with --diagnostics json too: a usage error is not a diagnostic of the file
      const extra = argv[0] === 'eval' ? [] : ['--diagnostics', 'json'];
      const typo = await runCli(bin, [...argv, '--dataset', 'http_request', ...extra]);
      expect([argv[0], typo.code, typo.stdout]).toEqual([argv[0], 2, '']);
      expect(typo.stderr).toContain('--dataset');
      expect(typo.stderr).toContain('http_requests');
      expect(typo.stderr).not.toContain('dns_logs');
      const far = await runCli(bin, [...argv, '--dataset', 'nope']);
      expect([argv[0], far.code]).toEqual([argv[0], 2]);
      for (const name of ['dns_logs', 'firewall_events', 'http_requests', 'any']) expect(far.stderr).toContain(name);
      expect(far.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
  it('--max-operators and --max-bytes', async () => {
    const r = await runCli('compile-filter', [OK, '--max-operators', '1', '--diagnostics', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)[0]).toMatchObject({ code: 'too-many-operators', range: { start: { line: 2, column: 44 } } });
    const b = await runCli('compile-filter', [OK, '--max-bytes', '50', '--diagnostics', 'json']);
    expect(JSON.parse(b.stderr).map((d: { code: string }) => d.code)).toEqual(['too-large']);
  });
  it('--optimize reports the operator count before and after', async () => {
    const f = file('o.logfilter', 'ClientCountry == "us" or ClientCountry == "ca"');
    const r = await runCli('compile-filter', [f, '--optimize']);
    expect(r.stdout).toBe('{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}\n');
    expect(r.stderr).toMatch(/2 → 1/);
  });
  it('usage errors exit 2: unknown flag, bad values, missing file, no input on a terminal', async () => {
    expect((await runCli('compile-filter', [OK, '--nope'])).code).toBe(2);
    expect((await runCli('compile-filter', [OK, '--format', 'xml'])).code).toBe(2);
    expect((await runCli('compile-filter', [OK, '--max-operators', 'abc'])).code).toBe(2);
    expect((await runCli('compile-filter', [OK, '--max-bytes', '0'])).code).toBe(2);
    expect((await runCli('compile-filter', [OK, OK])).code).toBe(2);
    const missing = await runCli('compile-filter', [path.join(dir, 'missing.logfilter')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing\.logfilter/);
    expect(missing.stderr.split('\n').length).toBeLessThanOrEqual(2);
    expect((await runCli('compile-filter', [])).code).toBe(2);
    expect((await runCli('compile-filter', [dir])).code).toBe(2);
  });
  it('a file that is not UTF-8 is an I/O error (exit 2)', async () => {
    const p = path.join(dir, 'latin1.logfilter');
    writeFileSync(p, Buffer.from([0x61, 0x20, 0x3d, 0x3d, 0x20, 0x22, 0xe9, 0x22]));
    expect((await runCli('compile-filter', [p])).code).toBe(2);
  });
  it('reads a file whole or as a stream alike: a byte-order mark is dropped, an empty file and /dev/null are empty filters (exit 1, not 2)', async () => {
    const plain = path.join(dir, 'plain.logfilter');
    const bom = path.join(dir, 'bom.logfilter');
    writeFileSync(plain, 'ClientRequestHost == "a"\n');
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ClientRequestHost == "a"\n')]));
    const a = await runCli('compile-filter', [plain]);
    const b = await runCli('compile-filter', [bom]);
    expect([a.code, b.code, b.stdout]).toEqual([0, 0, a.stdout]);
    const empty = path.join(dir, 'empty.logfilter');
    writeFileSync(empty, '');
    for (const f of [empty, '/dev/null']) {
      const r = await runCli('compile-filter', [f, '--diagnostics', 'json']);
      expect([r.code, JSON.parse(r.stderr).map((d: { code: string }) => d.code)]).toEqual([1, ['empty-filter']]);
    }
  });
  it('colour only on a terminal and never with NO_COLOR', async () => {
    expect((await runCli('compile-filter', [BAD], { tty: true })).stderr).toMatch(/\x1b\[/);
    expect((await runCli('compile-filter', [BAD], { tty: true, env: { NO_COLOR: '1' } })).stderr).not.toMatch(/\x1b\[/);
    expect((await runCli('compile-filter', [BAD], { tty: false })).stderr).not.toMatch(/\x1b\[/);
  });
  it('--help and --version exit 0', async () => {
    expect((await runCli('compile-filter', ['--help'])).code).toBe(0);
    expect((await runCli('logfilter', ['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('logfilter decompile', () => {
  it('turns each input form into the same canonical source; a job\u2019s starts with its dataset line', async () => {
    const expected = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500\n';
    for (const input of [JSON_OUT, JSON.stringify(JSON_OUT)]) {
      expect(await runCli('logfilter', ['decompile'], { stdin: input })).toEqual({ code: 0, stdout: expected, stderr: '' });
    }
    const job = JSON.stringify({ name: 'j', dataset: 'firewall_events', filter: JSON_OUT.replace('EdgeResponseStatus', 'OriginResponseStatus') });
    const fromJob = `dataset firewall_events\n\n${expected.replace('EdgeResponseStatus', 'OriginResponseStatus')}`;
    for (const input of [job, JSON.stringify({ result: JSON.parse(job), success: true, errors: [], messages: [] })]) {
      expect(await runCli('logfilter', ['decompile'], { stdin: input })).toEqual({ code: 0, stdout: fromJob, stderr: '' });
    }
  });
  it('--dataset writes the dataset line', async () => {
    const r = await runCli('logfilter', ['decompile', '--dataset', 'http_requests'], { stdin: JSON_OUT });
    expect(r.stdout.startsWith('dataset http_requests\n\n')).toBe(true);
  });
  it('a misspelled operator is an error with a suggestion, located in the JSON', async () => {
    const input = '{"where":{"key":"ClientCountry","operator":"neq","value":"ca"}}';
    const r = await runCli('logfilter', ['decompile', '--diagnostics', 'json'], { stdin: input });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const [d] = JSON.parse(r.stderr);
    expect(d).toMatchObject({ code: 'unknown-operator', path: ['where', 'operator'], suggestions: ['!eq'] });
    expect(input.slice(d.range.start.offset, d.range.end.offset)).toBe('"neq"');
  });
  it('--max-operators and --max-bytes: a filter over the default limits decompiles under the limits given, as check takes them', async () => {
    const big = JSON.stringify({ where: { or: Array.from({ length: 31 }, (_, i) => ({ key: 'EdgeResponseStatus', operator: 'eq', value: 400 + i })) } });
    const over = await runCli('logfilter', ['decompile', '--diagnostics', 'json'], { stdin: big });
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stderr).map((d: { code: string }) => d.code).sort()).toEqual(['too-large', 'too-many-operators']);
    const limits = ['--max-operators', '31', '--max-bytes', String(big.length)];
    const r = await runCli('logfilter', ['decompile', ...limits], { stdin: big });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect((await runCli('logfilter', ['compile', '-', ...limits], { stdin: r.stdout })).stdout).toBe(`${big}\n`);
    // one under either limit is an error again
    expect((await runCli('logfilter', ['decompile', '--max-operators', '30', '--max-bytes', String(big.length)], { stdin: big })).code).toBe(1);
    expect((await runCli('logfilter', ['decompile', '--max-operators', '31', '--max-bytes', String(big.length - 1)], { stdin: big })).code).toBe(1);
    expect((await runCli('logfilter', ['decompile', '--max-operators', '0'], { stdin: big })).code).toBe(2);
  });
  it('invalid JSON exits 1 with a located diagnostic', async () => {
    const r = await runCli('logfilter', ['decompile', '--diagnostics', 'json'], { stdin: '{"where":' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)[0].code).toBe('invalid-json');
  });
});

describe('logfilter check', () => {
  it('checks JSON filters with every check, located in the JSON', async () => {
    const input = '{"where":{"and":[{"key":"WAFAction","operator":"eq","value":"block"},{"key":"BotScore","operator":"lt","value":"30"}]}}';
    const r = await runCli('logfilter', ['check', '--diagnostics', 'json'], { stdin: input });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stderr);
    expect(ds.map((d: { code: string; path: unknown }) => [d.code, d.path])).toEqual([
      ['removed-field', ['where', 'and', 0, 'key']],
      ['numeric-string', ['where', 'and', 1, 'value']],
    ]);
    expect(ds[0].suggestions).toEqual(['SecurityAction']);
  });
  it('checks sources too, with limits', async () => {
    expect((await runCli('logfilter', ['check', OK])).code).toBe(0);
    expect((await runCli('logfilter', ['check', OK, '--max-operators', '1'])).code).toBe(1);
  });
});

describe('logfilter fmt', () => {
  it('prints the formatted source', async () => {
    const f = file('f.logfilter', 'ClientRequestHost   eq "a"  and  (EdgeResponseStatus geq 500)');
    expect(await runCli('logfilter', ['fmt', f])).toEqual({ code: 0, stdout: 'ClientRequestHost == "a" and EdgeResponseStatus >= 500\n', stderr: '' });
  });
  it('--check lists unformatted files and exits 1, changing nothing', async () => {
    const f = file('g.logfilter', 'a   ==  1');
    const g = file('h.logfilter', 'a == 1\n');
    const r = await runCli('logfilter', ['fmt', '--check', f, g]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${f}\n`);
    expect(readFileSync(f, 'utf8')).toBe('a   ==  1');
    expect((await runCli('logfilter', ['fmt', '--check', g])).code).toBe(0);
  });
  it('--write rewrites in place', async () => {
    const f = file('i.logfilter', 'a   ==  1 # keep\n');
    expect((await runCli('logfilter', ['fmt', '--write', f])).code).toBe(0);
    expect(readFileSync(f, 'utf8')).toBe('a == 1  # keep\n');
  });
  it('syntax errors: diagnostics, exit 1, file untouched', async () => {
    const f = file('j.logfilter', 'a == (');
    const r = await runCli('logfilter', ['fmt', '--write', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error syntax');
    expect(readFileSync(f, 'utf8')).toBe('a == (');
  });
  it('--check with --write is a usage error', async () => {
    expect((await runCli('logfilter', ['fmt', '--check', '--write', OK])).code).toBe(2);
  });
  it('--diagnostics json: one array for all the files, [] when all is well', async () => {
    const a = file('ja.logfilter', 'a == (');
    const b = file('jb.logfilter', 'b == ');
    const r = await runCli('logfilter', ['fmt', '--diagnostics', 'json', a, b]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stderr) as { file: string; code: string }[]).map((d) => [d.file, d.code])).toEqual([
      [a, 'syntax'],
      [b, 'syntax'],
    ]);
    const ok = await runCli('logfilter', ['fmt', '--check', '--diagnostics', 'json', file('jc.logfilter', 'c == 1\n')]);
    expect([ok.code, JSON.parse(ok.stderr)]).toEqual([0, []]);
  });
  it('--check of a file that does not parse: exit 1, its errors, and no advice to run --write', async () => {
    const r = await runCli('logfilter', ['fmt', '--check', file('k.logfilter', 'a == (')]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('error syntax');
    expect(r.stderr).not.toContain('--write');
  });
  it('--write with an unreadable file among the inputs: exit 2 and no file rewritten', async () => {
    const f = file('l.logfilter', 'a   ==  1\n');
    expect((await runCli('logfilter', ['fmt', '--write', f, path.join(dir, 'missing.logfilter')])).code).toBe(2);
    expect(readFileSync(f, 'utf8')).toBe('a   ==  1\n');
  });
});
